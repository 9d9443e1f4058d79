import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../store/user.repository.js';
import { SoftwareAuthenticator } from '../testing/software-authenticator.js';
import { BACKENDS, browser, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

type Browser = Awaited<ReturnType<typeof browser>>;

/** The authenticator app of the test: RFC 6238 by otpauth, as a phone app computes it. */
function codeAt(secret: string, at: number): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: at });
}

/** A window shorter than the default ten minutes, so a refusal within them can only come from the setting. */
const WINDOW_MS = 60_000;

/**
 * RECENT_SIGN_IN_SECONDS (S21, ADR 0036) is one window for every change of how one signs in: the security centre,
 * the 2FA set-up wizard and passkey registration from the account all allow a change within it and refuse it with
 * the same 403 `recentSignInRequired` once it has passed.
 */
for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `recent sign-in window (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      beforeAll(async () => {
        gw = await startTestGateway({ backend: backend.name, config: { recentSignInMs: WINDOW_MS } });
        // Codes are computed from the gateway's clock; start in the middle of a 30 s step.
        gw.clock.advance(30_000 - (gw.clock.now() % 30_000) + 10_000);
      });
      afterAll(async () => {
        await gw.close();
      });

      /** The answers of a change in each place that asks for a recent sign-in. */
      async function answers(b: Awaited<ReturnType<typeof browser>>) {
        const profile = await b.post('/api/Account/UpdateProfile', { displayName: 'Ada' });
        const setup = await b.agent.get('/api/Account/Setup2FAView');
        const passkey = await b.post('/api/Account/CredentialOptions?displayName=Laptop');
        return [profile, setup, passkey].map((res) => ({
          status: res.status,
          refused: (res.body as { errors?: unknown }).errors,
        }));
      }

      it('allows changes within the configured window and refuses them all once it has passed', async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app);
        expect((await b.signIn(user.username)).status).toBe(209);
        const view = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        // The page is told when the window ends: the sign-in (whole seconds) plus the configured window.
        const left = Number(view.body.recentSignInUntil) - gw.clock.now();
        expect(left).toBeGreaterThan(WINDOW_MS - 1_000);
        expect(left).toBeLessThanOrEqual(WINDOW_MS);

        gw.clock.advance(WINDOW_MS - 5_000);
        expect(await answers(b)).toEqual([
          { status: 200, refused: undefined },
          { status: 200, refused: undefined },
          { status: 200, refused: undefined },
        ]);

        // Past the window, well within the default ten minutes.
        gw.clock.advance(6_000);
        const stale = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        expect(stale.body.recentSignInUntil).toBe(0);
        const refused = { status: 403, refused: { '': ['recentSignInRequired'] } };
        expect(await answers(b)).toEqual([refused, refused, refused]);

        // A new full sign-in opens the window again.
        const again = await browser(gw.app);
        expect((await again.signIn(user.username)).status).toBe(209);
        expect((await answers(again)).map((a) => a.status)).toEqual([200, 200, 200]);
      });

      /** Two customers for `user`: every sign-in of it then passes the customer selection, a step that proves nothing. */
      async function twoCustomers(user: User): Promise<string> {
        for (const name of ['East', 'West'])
          await gw.store.customers.create({
            id: `${name}-${user.id}`,
            name: `${name} ${user.username}`,
            partnerId: null,
          });
        for (const name of ['East', 'West'])
          await gw.store.customers.addMembership({
            userId: user.id,
            customerId: `${name}-${user.id}`,
            roles: ['EMPLOYEE'],
          });
        return `East-${user.id}`;
      }

      /** Follows a 209 the way the client does; answers its target. */
      async function followed(
        b: Browser,
        res: { status: number; body: { redirect?: string; state?: string } },
      ) {
        expect(res.status).toBe(209);
        await b.exchange(res.body.state!);
        return res.body.redirect!;
      }

      /**
       * Choosing a customer 40 s after the proof, then: within the window counted from the proof the changes are
       * allowed; 65 s after it (25 s after the choice) they are refused — the choice renewed nothing (ADR 0005).
       */
      async function expectWindowFromProof(b: Browser, customerId: string, provedAt: number) {
        gw.clock.advance(40_000);
        expect(await followed(b, await b.post('/api/Account/SelectCustomer', { customerId }))).toBe(
          '/account/',
        );
        const view = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        expect(view.body.recentSignInUntil).toBe(Math.floor(provedAt / 1000) * 1000 + WINDOW_MS);
        expect((await answers(b)).map((a) => a.status)).toEqual([200, 200, 200]);
        gw.clock.advance(25_000);
        const refused = { status: 403, refused: { '': ['recentSignInRequired'] } };
        expect(await answers(b)).toEqual([refused, refused, refused]);
      }

      it('S21 the second factor renews the sign-in time; choosing a customer after it does not', async () => {
        // An authenticator on, through the set-up wizard of a first sign-in.
        const user = await gw.addUser({ requiresTwoFactor: true });
        const wizard = await browser(gw.app);
        await wizard.signIn(user.username);
        const setup = await wizard.agent.get('/api/Account/Setup2FAView').expect(200);
        const secret = String(setup.body.authenticator.secret).replace(/ /g, '');
        const confirmed = await wizard
          .post('/api/Account/Validate2faSetupCode', {
            method: 'authenticator',
            code: codeAt(secret, gw.clock.now()),
          })
          .expect(200);
        await wizard.post(`/api/Account/RedeemRecoveryCode?id=${confirmed.body.recoveryCodesId}`).expect(200);
        expect((await wizard.post('/api/Account/EnableTwoFactor?returnUrl=/account/')).status).toBe(209);
        const customerId = await twoCustomers(user);
        gw.clock.advance(30_000);

        const b = await browser(gw.app);
        expect((await b.signIn(user.username, undefined, { returnUrl: '/account/' })).body.redirect).toMatch(
          /^\/account\/login\/twofactor\?/,
        );
        // The password is typed, the code 50 s later: the window counts from the code.
        gw.clock.advance(WINDOW_MS - 10_000);
        const provedAt = gw.clock.now();
        const code = await b.post('/api/Account/LoginWith2FA', {
          method: 'authenticator',
          code: codeAt(secret, provedAt),
        });
        expect(await followed(b, code)).toMatch(/^\/account\/select\?/);
        await expectWindowFromProof(b, customerId, provedAt);
      });

      it('S21 a passkey sign-in renews the sign-in time; choosing a customer after it does not', async () => {
        const device = new SoftwareAuthenticator(gw.config.publicUrl);
        const user = await gw.addUser();
        // A passkey, registered at the passkey offer of a password sign-in.
        const offer = await browser(gw.app);
        expect(
          (
            await offer.signIn(user.username, undefined, {
              returnUrl: '/account/',
              platformAuthenticator: true,
            })
          ).body.redirect,
        ).toMatch(/^\/account\/registerdevice\?/);
        const options = await offer.post('/api/Account/CredentialOptions?displayName=Laptop').expect(200);
        const { payload, credential } = device.register(options.body);
        expect((await offer.post('/api/Account/RegisterCredential', payload)).status).toBe(209);
        const customerId = await twoCustomers(user);
        gw.clock.advance(WINDOW_MS + 1_000);

        const b = await browser(gw.app);
        const assertion = await b.post('/api/Account/AssertionOptions').expect(200);
        const provedAt = gw.clock.now();
        const signedIn = await b.post(
          `/api/Account/SecureLogin?returnUrl=${encodeURIComponent('/account/')}`,
          device.assert(assertion.body, credential),
        );
        expect(await followed(b, signedIn)).toMatch(/^\/account\/select\?/);
        await expectWindowFromProof(b, customerId, provedAt);
      });
    },
  );
}
