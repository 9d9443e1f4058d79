import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import {
  BACKENDS,
  TEST_PASSWORD,
  browser,
  startTestGateway,
  type TestGateway,
} from '../testing/test-gateway.js';
import { PENDING_SIGN_IN_MS } from '../identity/sign-in/sign-in.service.js';
import { twoFactorStep } from '../identity/two-factor/two-factor.step.js';
import { CALLS_OUTSIDE_SIGN_IN } from '../identity/sign-in/sign-in-step.js';

/** Every call of SPEC.md §7. */
const SPEC_CALLS = [
  'LoginView',
  'Login',
  'Exchange',
  'EexLink',
  'VendorLogin',
  'VendorLoginView',
  'Link',
  'IsRemoteAuthentication',
  'ProfileImage',
  'Next',
  'User',
  'ExternalUser',
  'SelectCustomerView',
  'Customers',
  'SelectCustomer',
  'LoginWith2FAView',
  'LoginWith2FA',
  'LoginWithRecoveryCodeView',
  'LoginWithRecoveryCode',
  'RedeemRecoveryCode',
  'RedeemState',
  'LoginWithOTT',
  'SendOTP',
  'PinReference',
  'GeneratePin',
  'GeneratePhoneVerification',
  'Validate2faSetupCode',
  'Setup2FAView',
  'EnableTwoFactor',
  'VerifyCaptcha',
  'Recover',
  'PasswordRules',
  'ChangeExpiredPassword',
  'ResetPassword',
  'AssertionOptions',
  'CredentialOptions',
  'RegisterCredential',
  'SecureLogin',
  'LogoutView',
  'Logout',
  'SilentLogout',
  'SilentLogin',
  'SkipFido',
  'UpstreamLogout',
  'LocalAllowed',
  'SetLanguage',
  'SystemStatus',
  'GetPartnerMetaData',
  'GetPartnerLogo',
  'Error',
];

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `account API (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      beforeAll(async () => {
        gw = await startTestGateway({ backend: backend.name });
      });
      afterAll(async () => {
        await gw.close();
      });

      it('answers the anonymous user without a session', async () => {
        const res = await request(gw.app).get('/api/Account/User?returnUrl=/').expect(200);
        expect(res.body).toEqual({ isAuthenticated: false });
      });

      it('signs in with username, then User is authenticated with roles', async () => {
        const user = await gw.addUser({ roles: ['EMPLOYEE', 'MANAGER'], displayName: 'Ann Example' });
        const b = await browser(gw.app);
        const res = await b.signIn(user.username, TEST_PASSWORD, { returnUrl: '/account/' });
        expect(res.status).toBe(209);
        expect(res.body.redirect).toBe('/account/');
        const me = await b.post('/api/Account/User?returnUrl=/').expect(200);
        expect(me.body).toMatchObject({
          isAuthenticated: true,
          userName: user.username,
          displayName: 'Ann Example',
          roles: ['EMPLOYEE', 'MANAGER'],
        });
      });

      it('signs in with the e-mail address, case-insensitively', async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app);
        const res = await b.signIn(user.email!.toUpperCase());
        expect(res.status).toBe(209);
      });

      it('refuses a wrong password with the errors map', async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app);
        const res = await b.signIn(user.username, 'wrong-password');
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          title: 'One or more validation errors occurred.',
          detail: 'The username or password is incorrect.',
          errors: { '': ['invalidCredentials'] },
        });
      });

      it('validates the body with the shared schema', async () => {
        const b = await browser(gw.app);
        const res = await b.post('/api/Account/Login', { username: '', password: '' }).expect(400);
        expect(res.body.errors).toEqual({ username: ['required'], password: ['required'] });
      });

      it("answers a missing value 'required' and a wrong type 'invalidValue' (not read from zod's messages)", async () => {
        const b = await browser(gw.app);
        const missing = await b.post('/api/Account/Login', {}).expect(400);
        expect(missing.body.errors).toEqual({ username: ['required'], password: ['required'] });
        const wrong = await b.post('/api/Account/Login', { username: null, password: 5 }).expect(400);
        expect(wrong.body.errors).toEqual({ username: ['required'], password: ['invalidValue'] });
      });

      it('routes a user with an expired password to the change page, and only that step works (S3)', async () => {
        const user = await gw.addUser({ passwordExpiresAt: gw.clock.now() - 1000 });
        const b = await browser(gw.app);
        const res = await b.signIn(user.username, TEST_PASSWORD, { returnUrl: '/interaction/abc' });
        expect(res.status).toBe(209);
        expect(res.body.redirect).toBe('/account/change-expired-password?returnUrl=%2Finteraction%2Fabc');
        // Not signed in, but the guard learns which step page the user may reach.
        const me = await b.agent.get('/api/Account/User').expect(200);
        expect(me.body).toEqual({ isAuthenticated: false, signInStep: '/account/change-expired-password' });
        // A call of another step restarts the flow: the protocol's empty 400, and the pending sign-in is gone.
        const other = await b.post('/api/Account/LoginWith2FA', {}).expect(400);
        expect(other.body).toEqual({});
        expect((await b.agent.get('/api/Account/User').expect(200)).body).toEqual({ isAuthenticated: false });
      });

      it('S20 a session past the password but not the second factor reaches only the 2FA calls', async () => {
        const user = await gw.addUser();
        await gw.store.database.db
          .insertInto('second_factors')
          .values({
            user_id: user.id,
            totp_secret_enc: null,
            totp_last_step: null,
            enabled: 1,
            preferred_method: 'pin',
            updated_at: 0,
          })
          .execute();
        const twoFactorCalls = new Set(twoFactorStep.calls.map((c) => c.toLowerCase()));
        const outside = new Set(CALLS_OUTSIDE_SIGN_IN.map((c) => c.toLowerCase()));
        const refused = SPEC_CALLS.filter(
          (c) => !twoFactorCalls.has(c.toLowerCase()) && !outside.has(c.toLowerCase()),
        );
        // Most SPEC calls (the sign-in-starting ones — Login, SecureLogin, LoginWithOTT, VendorLogin … — stay outside).
        expect(refused.length).toBeGreaterThan(20);
        const b = await browser(gw.app);
        for (const call of refused) {
          const res = await b.signIn(user.username);
          expect(res.body.redirect).toMatch(/^\/account\/login\/twofactor\?/);
          expect((await b.agent.get('/api/Account/User')).body.signInStep).toBe('/account/login/twofactor');
          const answer = await b.post(`/api/Account/${call}`, {});
          expect({ call, status: answer.status, body: answer.body }).toEqual({ call, status: 400, body: {} });
          // Refused and forgotten: the half-done sign-in cannot be resumed.
          expect((await b.agent.get('/api/Account/User')).body).toEqual({ isAuthenticated: false });
          b.token = (await b.agent.get('/api/Account/Antiforgery')).body.token;
        }
      });

      it('sends a user who must use 2FA but has none yet to the set-up wizard, not signed in', async () => {
        const user = await gw.addUser({ requiresTwoFactor: true });
        const b = await browser(gw.app);
        const res = await b.signIn(user.username);
        expect(res.body.redirect).toMatch(/^\/account\/setup-twofactor\?returnUrl=/);
        const me = await b.agent.get('/api/Account/User').expect(200);
        expect(me.body).toEqual({ isAuthenticated: false, signInStep: '/account/setup-twofactor' });
        expect((await b.post('/api/Account/ChangeExpiredPassword', {})).status).toBe(400);
      });

      it('a pending sign-in older than its limit restarts at the sign-in page', async () => {
        const user = await gw.addUser({ passwordExpiresAt: gw.clock.now() - 1000 });
        const b = await browser(gw.app);
        await b.signIn(user.username);
        gw.clock.advance(PENDING_SIGN_IN_MS + 1000);
        // The step's own call no longer works, and User says plainly that nobody is signing in.
        const late = await b.post('/api/Account/ChangeExpiredPassword', {});
        expect(late.status).toBe(400);
        expect(late.body).toEqual({});
        expect((await b.agent.get('/api/Account/User').expect(200)).body).toEqual({ isAuthenticated: false });
      });

      it('a pending sign-in keeps a browser-session cookie even with remember-me', async () => {
        const user = await gw.addUser({ passwordExpiresAt: gw.clock.now() - 1000 });
        const b = await browser(gw.app);
        const res = await b.signIn(user.username, TEST_PASSWORD, { rememberMe: true });
        const cookie = ([] as string[])
          .concat(res.headers['set-cookie'] ?? [])
          .find((c) => c.startsWith('idp.session='));
        expect(cookie).toBeDefined();
        expect(cookie).not.toMatch(/Max-Age/i);
        const plain = await gw.addUser();
        const b2 = await browser(gw.app);
        const done = await b2.signIn(plain.username, TEST_PASSWORD, { rememberMe: true });
        const persistent = ([] as string[])
          .concat(done.headers['set-cookie'] ?? [])
          .find((c) => c.startsWith('idp.session='));
        expect(persistent).toMatch(/Max-Age=\d+/);
      });

      it('LoginView keeps the username for the session and checks the returnUrl', async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app);
        await b.signIn(user.username, 'nope');
        const view = await b.post('/api/Account/LoginView?returnUrl=//evil.example').expect(200);
        expect(view.body).toMatchObject({
          username: user.username,
          allowLocal: true,
          returnUrl: '/',
          providers: [],
        });
      });

      it('the sign-in page after an idle timeout starts a fresh session, so the first Sign in works', async () => {
        const first = await gw.addUser();
        const second = await gw.addUser();
        const b = await browser(gw.app);
        await b.signIn(first.username);
        gw.clock.advance(gw.config.sessionIdleMs + 60_000);
        // The next person opens the sign-in page: LoginView hands over a new session and anti-forgery token.
        const view = await b.agent.get('/api/Account/LoginView?returnUrl=/').expect(200);
        expect(view.body.username).toBeUndefined();
        const token = /idp\.x-csrf-token-value=([^;]+)/.exec(String(view.headers['set-cookie']))?.[1];
        expect(token).toBeTruthy();
        b.token = decodeURIComponent(token!);
        const res = await b.signIn(second.username);
        expect(res.status).toBe(209);
        expect((await b.agent.get('/api/Account/User')).body.userName).toBe(second.username);
      });

      it('LocalAllowed and IsRemoteAuthentication answer booleans', async () => {
        expect((await request(gw.app).get('/api/Account/LocalAllowed?returnUrl=/').expect(200)).body).toBe(
          true,
        );
        expect(
          (
            await request(gw.app)
              .get('/api/Account/IsRemoteAuthentication?returnUrl=/interaction/x1')
              .expect(200)
          ).body,
        ).toBe(true);
        expect(
          (await request(gw.app).get('/api/Account/IsRemoteAuthentication?returnUrl=/account/').expect(200))
            .body,
        ).toBe(false);
      });

      it('LocalAllowed tells what the sign-in page shows; IsRemoteAuthentication checks the returnUrl first (ADR 0040)', async () => {
        // No partner or client setting turns password sign-in off yet: both answers say it is allowed, together.
        const view = await request(gw.app).get('/api/Account/LoginView?returnUrl=/').expect(200);
        const allowed = await request(gw.app).get('/api/Account/LocalAllowed?returnUrl=/').expect(200);
        expect(allowed.body).toBe(view.body.allowLocal);
        // An address off the site is checked first, as LoginView checks it: no application's sign-in behind it.
        const offSite = encodeURIComponent('//evil.example/interaction/x');
        const remote = await request(gw.app).get(`/api/Account/IsRemoteAuthentication?returnUrl=${offSite}`);
        expect([remote.status, remote.body]).toEqual([200, false]);
      });

      it('Exchange answers a fresh token for a 209 state, also at /api/account/exchange', async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app);
        const res = await b.agent
          .post('/api/Account/Login')
          .set('x-csrf-token-value', b.token)
          .send({ username: user.username, password: TEST_PASSWORD });
        expect(res.status).toBe(209);
        // No anti-forgery header at all: the state alone proves the step change.
        const ex = await b.agent.post('/api/account/exchange').send({ state: res.body.state }).expect(200);
        expect(typeof ex.body.token).toBe('string');
        const bad = await b.agent
          .post('/api/account/exchange')
          .send({ state: 'forged.state.value' })
          .expect(400);
        expect(bad.body.errors['']).toEqual(['antiforgeryInvalid']);
      });

      it('LogoutView asks a signed-in user to confirm; Logout goes to the logged-out page', async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app);
        await b.signIn(user.username);
        const view = await b.agent.get('/api/Account/LogoutView').expect(200);
        expect(view.body).toEqual({ showLogoutPrompt: true });
        const out = await b.post('/api/Account/Logout', {});
        expect(out.status).toBe(209);
        expect(out.body.redirect).toBe('/account/loggedout');
      });

      it('an unknown account call is a 404 with the errors map', async () => {
        const res = await request(gw.app).get('/api/Account/NoSuchCall').expect(404);
        expect(res.body.errors['']).toEqual(['notFound']);
      });
    },
  );
}
