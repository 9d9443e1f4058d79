/**
 * Remembered browsers in the security centre (issue 43, ADR 0036): "remember this browser" (ADR 0008) is listed with
 * where and when, and forgetting one really revokes it — that browser is asked for the second factor at its next
 * sign-in although its cookie entry's MAC still verifies. Proved through the HTTP sign-in flow, on SQLite and on
 * PostgreSQL + Redis.
 */
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../infra/crypto/tokens.js';
import { DEFAULT_RECENT_SIGN_IN_MS } from '../identity/two-factor/two-factor.service.js';
import type { User } from '../store/user.repository.js';
import { BACKENDS, browser, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

type Browser = Awaited<ReturnType<typeof browser>>;

const STEP_MS = 30_000;
const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

interface Listed {
  id: string;
  current: boolean;
  rememberedAt: number;
  lastUsedAt: number | null;
  ip: string | null;
  userAgent: string | null;
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `remembered browsers in the security centre (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      let partner = 0;
      const secrets = new Map<string, string>();
      /** The `idp.2fa` cookie each remembered browser was given. */
      const cookieOf = new Map<Browser, string>();
      beforeAll(async () => {
        gw = await startTestGateway({ backend: backend.name });
      });
      afterAll(async () => {
        await gw.close();
      });

      /** A user with the authenticator app, of a partner that lets browsers be remembered. */
      async function userWithAuthenticator(): Promise<User> {
        partner += 1;
        const partnerId = `remember-${backend.name}-${partner}`;
        await gw.store.partners.create({ id: partnerId, name: 'Remember Ltd', domains: [] });
        await gw.store.partners.update(partnerId, { rememberTwoFactorBrowser: true });
        const user = await gw.addUser({ partnerId });
        const secret = new Secret({ size: 20 }).base32;
        await gw.store.secondFactors.enableAuthenticator(user.id, gw.store.secrets.encrypt(secret), 0);
        secrets.set(user.id, secret);
        return user;
      }

      /** A code of the user's authenticator in a time step no earlier sign-in used (S17). */
      function nextCode(user: User): string {
        gw.clock.advance(STEP_MS);
        const totp = new TOTP({ digits: 6, period: 30, secret: Secret.fromBase32(secrets.get(user.id)!) });
        return totp.generate({ timestamp: gw.clock.now() });
      }

      /** Signs in with the password on `b`: true when the second factor was asked for, false when skipped. */
      async function asksSecondFactor(b: Browser, user: User): Promise<boolean> {
        const res = await b.signIn(user.username);
        expect(res.status).toBe(209);
        return String(res.body.redirect).startsWith('/account/login/twofactor');
      }

      /** A new browser (with its own user agent) signed in with the authenticator, ticking "remember this browser". */
      async function rememberedBrowser(user: User, userAgent = CHROME_LINUX): Promise<Browser> {
        const b = await browser(gw.app);
        void b.agent.set('User-Agent', userAgent);
        expect(await asksSecondFactor(b, user)).toBe(true);
        const done = await b.post('/api/Account/LoginWith2FA', {
          method: 'authenticator',
          code: nextCode(user),
          rememberBrowser: true,
        });
        expect(done.status).toBe(209);
        const cookie = ((done.headers['set-cookie'] as unknown as string[] | undefined) ?? []).find((c) =>
          c.startsWith('idp.2fa='),
        );
        expect(cookie).toBeDefined();
        cookieOf.set(b, cookie!.split(';')[0]!.slice('idp.2fa='.length));
        await b.exchange(String(done.body.state));
        return b;
      }

      async function listed(b: Browser): Promise<Listed[]> {
        const view = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        return view.body.rememberedBrowsers as Listed[];
      }

      const mailTexts = async (user: User) =>
        (await gw.store.outbox.list({ to: user.email! })).map((m) => m.text);

      it('lists each remembered browser with where and when, marking this one, never its cookie or key', async () => {
        const user = await userWithAuthenticator();
        const rememberedAt = gw.clock.now() + STEP_MS;
        const laptop = await rememberedBrowser(user);
        const other = await rememberedBrowser(user, FIREFOX_WINDOWS);
        const list = await listed(laptop);
        expect(list).toHaveLength(2);
        expect(list.filter((b) => b.current)).toHaveLength(1);
        const mine = list.find((b) => b.current)!;
        expect(mine).toMatchObject({
          userAgent: CHROME_LINUX,
          // Coarse: the network, not the host; an IPv4 client of a dual-stack socket as IPv4.
          ip: '127.0.0.0/24',
          rememberedAt,
          lastUsedAt: null,
        });
        expect(list.find((b) => !b.current)?.userAgent).toBe(FIREFOX_WINDOWS);
        const otherView = await other.agent.get('/api/Account/SecurityCentreView').expect(200);
        expect(otherView.body.browserRemembered).toBe(true);
        expect((otherView.body.rememberedBrowsers as Listed[]).find((b) => b.current)?.userAgent).toBe(
          FIREFOX_WINDOWS,
        );
        // The table keys each entry by a hash of its random part; the page sees neither that nor the cookie.
        const entry = cookieOf.get(laptop)!;
        const [, random = ''] = entry.split('.');
        const rows = await gw.store.rememberedBrowsers.listForUser(
          user.id,
          sha256(user.securityStamp),
          gw.clock.now(),
        );
        expect(rows.map((r) => r.entryKey)).toContain(sha256(random));
        expect(JSON.stringify(rows)).not.toContain(random);
        const body = JSON.stringify(list);
        for (const part of [random, sha256(random), entry.split('.')[2]!]) expect(body).not.toContain(part);
      });

      it('a remembered browser skips the second factor (its last use listed); forgotten, it is asked again although its cookie stands', async () => {
        const user = await userWithAuthenticator();
        const kept = await rememberedBrowser(user);
        const forgotten = await rememberedBrowser(user, FIREFOX_WINDOWS);
        // Both skip the second factor at their next sign-in.
        gw.clock.advance(STEP_MS);
        expect(await asksSecondFactor(forgotten, user)).toBe(false);
        const usedAt = gw.clock.now();
        const handle = (await listed(kept)).find((b) => !b.current)!;
        expect(handle.lastUsedAt).toBe(usedAt);

        await kept.post('/api/Account/ForgetRememberedBrowser', { id: handle.id }).expect(200);
        expect((await listed(kept)).map((b) => b.id)).not.toContain(handle.id);
        // The forgotten browser still holds its signed entry; the sign-in asks for the second factor all the same.
        expect(await asksSecondFactor(forgotten, user)).toBe(true);
        const done = await forgotten.post('/api/Account/LoginWith2FA', {
          method: 'authenticator',
          code: nextCode(user),
        });
        expect(done.status).toBe(209);
        // The other one is still remembered.
        expect(await asksSecondFactor(kept, user)).toBe(false);

        expect(await mailTexts(user)).toEqual(
          expect.arrayContaining([
            expect.stringContaining('A browser remembered for your account was forgotten'),
          ]),
        );
        const audit = await gw.store.audit.list({ userId: user.id });
        expect(audit.map((e) => e.kind)).toContain('security-centre.remembered-browser-forgotten');
      });

      it('forgets every remembered browser at once, this one included', async () => {
        const user = await userWithAuthenticator();
        const first = await rememberedBrowser(user);
        const second = await rememberedBrowser(user, FIREFOX_WINDOWS);
        const all = await first.post('/api/Account/ForgetAllRememberedBrowsers').expect(200);
        expect(all.body).toEqual({ forgotten: 2 });
        const view = await first.agent.get('/api/Account/SecurityCentreView').expect(200);
        expect(view.body).toMatchObject({ rememberedBrowsers: [], browserRemembered: false });
        expect(await asksSecondFactor(first, user)).toBe(true);
        expect(await asksSecondFactor(second, user)).toBe(true);
        expect(await mailTexts(user)).toEqual(
          expect.arrayContaining([
            expect.stringContaining('Every browser remembered for your account was forgotten'),
          ]),
        );
      });

      it('answers 404 for another account’s remembered browser and forgets nothing', async () => {
        const owner = await userWithAuthenticator();
        const stranger = await userWithAuthenticator();
        const ownersBrowser = await rememberedBrowser(owner);
        const strangersBrowser = await rememberedBrowser(stranger);
        const [theirs] = await listed(ownersBrowser);
        const refused = await strangersBrowser
          .post('/api/Account/ForgetRememberedBrowser', { id: theirs!.id })
          .expect(404);
        expect(refused.body.errors).toEqual({ '': ['notFound'] });
        await strangersBrowser.post('/api/Account/ForgetRememberedBrowser', { id: 'unknown' }).expect(404);
        expect(await listed(ownersBrowser)).toHaveLength(1);
        expect(await asksSecondFactor(ownersBrowser, owner)).toBe(false);
      });

      it('needs a recent full sign-in (403 recentSignInRequired), a handle (400 errors map) and the anti-forgery header', async () => {
        const user = await userWithAuthenticator();
        const b = await rememberedBrowser(user);
        const [mine] = await listed(b);
        const missing = await b.post('/api/Account/ForgetRememberedBrowser', {}).expect(400);
        expect(missing.body.errors).toEqual({ id: ['required'] });
        const tooLong = await b
          .post('/api/Account/ForgetRememberedBrowser', { id: 'x'.repeat(65) })
          .expect(400);
        expect(tooLong.body.errors).toEqual({ id: ['invalidValue'] });
        gw.clock.advance(DEFAULT_RECENT_SIGN_IN_MS + 1000);
        for (const [call, body] of [
          ['ForgetRememberedBrowser', { id: mine!.id }],
          ['ForgetAllRememberedBrowsers', {}],
        ] as const) {
          const res = await b.post(`/api/Account/${call}`, body);
          expect(res.status, call).toBe(403);
          expect(res.body.errors).toEqual({ '': ['recentSignInRequired'] });
        }
        // Without the anti-forgery header nothing happens either (S30).
        await b.agent.post('/api/Account/ForgetAllRememberedBrowsers').send({}).expect(400);
        expect(await listed(b)).toHaveLength(1);
        expect(await mailTexts(user)).toEqual([]);
        const anonymous = await browser(gw.app);
        await anonymous.post('/api/Account/ForgetAllRememberedBrowsers').expect(401);
      });

      it('a new security stamp (password change) forgets them all: none is listed and each asks again', async () => {
        const user = await userWithAuthenticator();
        const b = await rememberedBrowser(user);
        expect(await listed(b)).toHaveLength(1);
        await gw.store.users.rotateSecurityStamp(user.id);
        expect(await asksSecondFactor(b, user)).toBe(true);
        const done = await b.post('/api/Account/LoginWith2FA', {
          method: 'authenticator',
          code: nextCode(user),
        });
        expect(done.status).toBe(209);
        await b.exchange(String(done.body.state));
        expect(await listed(b)).toEqual([]);
      });
    },
  );
}
