import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import {
  BACKENDS,
  TEST_PASSWORD,
  browser,
  startTestGateway,
  type TestGateway,
} from '../testing/test-gateway.js';

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

      it('routes a user with an expired password to the change page, and only that step works (S3)', async () => {
        const user = await gw.addUser({ passwordExpiresAt: gw.clock.now() - 1000 });
        const b = await browser(gw.app);
        const res = await b.signIn(user.username, TEST_PASSWORD, { returnUrl: '/interaction/abc' });
        expect(res.status).toBe(209);
        expect(res.body.redirect).toBe('/account/change-expired-password?returnUrl=%2Finteraction%2Fabc');
        const me = await b.agent.get('/api/Account/User').expect(200);
        expect(me.body.isAuthenticated).toBe(false);
        const other = await b.post('/api/Account/LoginWith2FA', {}).expect(400);
        expect(other.body.errors['']).toEqual(['stepNotAllowed']);
      });

      it('routes a user who must use 2FA to the 2FA page without signing in (S20)', async () => {
        const user = await gw.addUser({ requiresTwoFactor: true });
        const b = await browser(gw.app);
        const res = await b.signIn(user.username);
        expect(res.body.redirect).toMatch(/^\/account\/login\/twofactor\?/);
        const me = await b.agent.get('/api/Account/User').expect(200);
        expect(me.body.isAuthenticated).toBe(false);
        expect((await b.post('/api/Account/ChangeExpiredPassword', {})).body.errors['']).toEqual([
          'stepNotAllowed',
        ]);
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
