import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ThrottleLimits } from '../infra/throttle/login-throttle.js';
import {
  BACKENDS,
  TEST_PASSWORD,
  browser,
  startTestGateway,
  type TestGateway,
  type TestGatewayOptions,
} from '../testing/test-gateway.js';

/** Limits that never interfere; each test tightens only the ones it is about. */
const LOOSE: Partial<ThrottleLimits> = {
  perAccountSource: 1000,
  perAccount: 1000,
  perSource: 1000,
  freeFailures: 1000,
};

const answer = (res: { body: { errors?: Record<string, string[]> } }) => res.body.errors?.['']?.[0];

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `sign-in throttle policy (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway | undefined;
      const start = async (limits: Partial<ThrottleLimits>, options: TestGatewayOptions = {}) => {
        gw = await startTestGateway({
          backend: backend.name,
          throttleLimits: { ...LOOSE, ...limits },
          ...options,
        });
        return gw;
      };
      afterEach(async () => {
        await gw?.close();
        gw = undefined;
      });

      /** A user whose login has letters with full-width forms; e-mail `<name>@demo.test`. */
      const employee = async (g: TestGateway) => {
        const username = `employee${randomBytes(3).toString('hex')}`;
        const user = await g.addUser({ username, email: `${username}@demo.test` });
        const spellings = [
          `\uff45${username.slice(1)}`, // ｅmployee…
          `e\uff4d${username.slice(2)}`, // eｍployee…
          `${username}@demo.test`,
          `${username}@demo.test`.toUpperCase(),
        ];
        return { user, spellings };
      };

      it('S4 every spelling of one account (full-width, e-mail, upper case) spends one per-account budget', async () => {
        const g = await start({ perAccount: 3 });
        const { spellings } = await employee(g);
        const results: (string | undefined)[] = [];
        for (const [i, login] of spellings.entries()) {
          const stranger = await browser(g.app, `10.40.1.${i + 1}`);
          results.push(answer(await stranger.signIn(login, 'wrong')));
        }
        expect(results).toEqual([
          'invalidCredentials',
          'invalidCredentials',
          'invalidCredentials',
          'tooManyAttempts',
        ]);
      });

      it('S4 every spelling shares the growing delay of one account and source', async () => {
        const g = await start({ freeFailures: 2, maxDelaySeconds: 60 });
        const { spellings } = await employee(g);
        const b = await browser(g.app, '10.40.2.1');
        const results: (string | undefined)[] = [];
        for (const login of spellings) results.push(answer(await b.signIn(login, 'wrong')));
        // Two free failures, the third starts a one-second delay, which the fourth spelling meets.
        expect(results).toEqual([
          'invalidCredentials',
          'invalidCredentials',
          'invalidCredentials',
          'tooManyAttempts',
        ]);
      });

      it('S4 a login that matches nobody is counted as the lookup normalises it', async () => {
        const g = await start({ perAccountSource: 2 });
        const b = await browser(g.app, '10.40.3.1');
        const results: (string | undefined)[] = [];
        for (const login of ['nobody-here', '\uff4eobody-here', 'NOBODY-HERE'])
          results.push(answer(await b.signIn(login, 'wrong')));
        expect(results).toEqual(['invalidCredentials', 'invalidCredentials', 'tooManyAttempts']);
      });

      it('S5 parallel wrong passwords in different spellings evaluate at most the limit', async () => {
        const g = await start({ perAccount: 4 });
        const { spellings } = await employee(g);
        const strangers = await Promise.all(
          Array.from({ length: 16 }, (_, i) => browser(g.app, `10.50.0.${i + 1}`)),
        );
        const results = await Promise.all(
          strangers.map((b, i) => b.signIn(spellings[i % spellings.length]!, 'wrong')),
        );
        expect(results.filter((r) => answer(r) === 'invalidCredentials')).toHaveLength(4);
        expect(results.every((r) => r.status === 400)).toBe(true);
      });

      it('S7 strangers spending the account budget do not refuse the owner on a known browser or source', async () => {
        const g = await start({ perAccount: 5 });
        const { user } = await employee(g);
        // The owner signed in before: this browser is a known browser, 10.70.0.1 a known source.
        const laptop = await browser(g.app, '10.70.0.1');
        expect((await laptop.signIn(user.username)).status).toBe(209);

        for (let i = 0; i < 8; i += 1) {
          const stranger = await browser(g.app, `10.71.0.${i + 1}`);
          await stranger.signIn(user.username, 'guess');
        }
        // A stranger is now refused even with the right password, for a bounded time (the soft limit).
        const newcomer = await browser(g.app, '10.71.1.1');
        const refused = await newcomer.signIn(user.username, TEST_PASSWORD);
        expect(answer(refused)).toBe('tooManyAttempts');
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);

        // The owner's browser travels (another address) and is still let in: its own counter decides.
        laptop.agent.set('X-Forwarded-For', '10.72.0.9');
        expect((await laptop.signIn(user.username)).status).toBe(209);
        // A fresh browser from the address the owner signed in from before is let in too.
        const home = await browser(g.app, '10.70.0.1');
        expect((await home.signIn(user.username)).status).toBe(209);
        // And a wrong password from the known browser is still answered, not refused.
        expect(answer(await laptop.signIn(user.username, 'typo'))).toBe('invalidCredentials');
      });

      it('S7 the known-device cookie is HttpOnly and dies with the security stamp', async () => {
        const g = await start({ perAccount: 2 });
        const { user } = await employee(g);
        const laptop = await browser(g.app, '10.73.0.1');
        const first = await laptop.signIn(user.username);
        const cookies = ([] as string[]).concat(first.headers['set-cookie'] ?? []);
        const device = cookies.find((c) => c.startsWith('idp.device='));
        expect(device).toMatch(/HttpOnly/);
        expect(device).toMatch(/SameSite=Lax/);
        for (let i = 0; i < 3; i += 1)
          await (await browser(g.app, `10.74.0.${i}`)).signIn(user.username, 'x');
        // Rotating the stamp (new password, disabling, revoking) forgets every known browser of the user.
        await g.store.users.update(user.id, { passwordHash: user.passwordHash! });
        laptop.agent.set('X-Forwarded-For', '10.73.0.2');
        expect(answer(await laptop.signIn(user.username))).toBe('tooManyAttempts');
      });

      it('S7 a stranger guessing from the known browser’s address does not refuse the known browser', async () => {
        const g = await start({ perAccountSource: 3 });
        const { user } = await employee(g);
        const laptop = await browser(g.app, '10.75.0.1');
        expect((await laptop.signIn(user.username)).status).toBe(209);
        const sameNat = await browser(g.app, '10.75.0.1');
        for (let i = 0; i < 5; i += 1) await sameNat.signIn(user.username, 'guess');
        expect(answer(await sameNat.signIn(user.username, TEST_PASSWORD))).toBe('tooManyAttempts');
        expect((await laptop.signIn(user.username)).status).toBe(209);
      });

      it('S7 one bad client behind a proxy without TRUST_PROXY cannot lock out other accounts’ known users', async () => {
        // Without TRUST_PROXY every client behind the proxy has the proxy's address.
        const g = await start({ perSource: 5 }, { config: { trustProxy: false } });
        const ann = (await employee(g)).user;
        const bob = (await employee(g)).user;
        const carl = (await employee(g)).user;
        const annLaptop = await browser(g.app);
        expect((await annLaptop.signIn(ann.username)).status).toBe(209);
        expect((await (await browser(g.app)).signIn(bob.username)).status).toBe(209);

        const bad = await browser(g.app);
        for (const login of ['x1', 'x2', carl.username, ann.username, bob.username, 'x3', 'x4', 'x5'])
          await bad.signIn(login, 'guess');
        // The spraying bound still holds for strangers: carl never signed in here, so he waits like the bad client.
        expect(answer(await (await browser(g.app)).signIn(carl.username))).toBe('tooManyAttempts');
        // Ann on her known browser and bob from the address he signed in from are let in.
        expect((await annLaptop.signIn(ann.username)).status).toBe(209);
        expect((await (await browser(g.app)).signIn(bob.username)).status).toBe(209);
      });
    },
  );
}
