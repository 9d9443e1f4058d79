/**
 * Silent sign-in and sign-out (ADR 0020) against a real code flow: SilentLogout ends the server session and the
 * OIDC session like Logout (S27) and needs the anti-forgery header (S30); OIDC `prompt=none` answers a code with a
 * signed-in session and `login_required` without one, never a page; SilentLogin signs a remembered browser in
 * towards an application, with the sign-in steps that still apply, and nothing else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  pkcePair,
  startBackchannelListener,
  TestBrowser,
  decodeJwt,
  type BackchannelListener,
} from '../testing/oidc-harness.js';
import { sha256 } from '../infra/crypto/tokens.js';
import { BACKENDS, TEST_PASSWORD, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

const CLIENT_ID = 'portal-silent';
const REDIRECT_URI = 'http://localhost:4000/callback';

function json(browser: TestBrowser, url: string, body: unknown, token?: string): Promise<Response> {
  return browser.request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-csrf-token-value': token } : {}) },
    body: JSON.stringify(body),
  });
}

function authorizeUrl(issuer: string, extra: Record<string, string> = {}): string {
  const url = new URL('/connect/authorize', issuer);
  url.search = new URLSearchParams({
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'openid profile roles',
    state: 'st-1',
    nonce: 'n-1',
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
    ...extra,
  }).toString();
  return url.href;
}

/** The session cookie the browser holds now (`idp.session=<id>`). */
function sessionCookieOfJar(browser: TestBrowser): string | undefined {
  return (browser as unknown as { cookieHeader(path: string): string })
    .cookieHeader('/')
    .split('; ')
    .find((pair) => pair.startsWith('idp.session='));
}

function sessionCookie(response: Response): string | undefined {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.startsWith('idp.session='));
}

/** Where a silent authorization ends: the client's redirect_uri with its query, never a page of ours. */
async function silentAuthorize(issuer: string, browser: TestBrowser): Promise<URL> {
  const end = await browser.follow(authorizeUrl(issuer, { prompt: 'none' }), [
    '/account/login',
    '/account/select',
  ]);
  return new URL(end.url);
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `silent sign-in and sign-out (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      let listener: BackchannelListener;
      let issuer: string;

      beforeAll(async () => {
        listener = await startBackchannelListener();
        gw = await startTestGateway({ backend: backend.name, oidc: true, realClock: true });
        issuer = gw.url!;
        await gw.store.clients.create({
          clientId: CLIENT_ID,
          name: 'Payroll portal',
          redirectUris: [REDIRECT_URI],
          postLogoutRedirectUris: ['http://localhost:4000/'],
          backchannelLogoutUri: listener.url,
        });
      });

      afterAll(async () => {
        await gw?.close();
        await listener?.close();
      });

      /** Password sign-in on the site (no application); answers the session cookie and a fresh token. */
      async function signInOnSite(
        browser: TestBrowser,
        username: string,
        options: { rememberMe?: boolean; returnUrl?: string } = {},
      ) {
        const anti = (await (await browser.request('/api/Account/Antiforgery')).json()) as { token: string };
        const login = await json(
          browser,
          '/api/Account/Login',
          { username, password: TEST_PASSWORD, ...options },
          anti.token,
        );
        expect(login.status).toBe(209);
        const step = (await login.json()) as { redirect: string; state: string };
        const { token } = (await (
          await json(browser, '/api/Account/Exchange', { state: step.state })
        ).json()) as { token: string };
        return { cookie: sessionCookie(login)!, token, redirect: step.redirect };
      }

      /** An application's sign-in through the sign-in page: answers the code's callback URL and a token. */
      async function signInWithCodeFlow(browser: TestBrowser, username: string, rememberMe = false) {
        const toLogin = await browser.follow(authorizeUrl(issuer), ['/account/login']);
        const returnUrl = new URL(toLogin.url).searchParams.get('returnUrl')!;
        expect(returnUrl).toMatch(/^\/interaction\//);
        const signedIn = await signInOnSite(browser, username, { rememberMe, returnUrl });
        const back = await browser.follow(signedIn.redirect);
        const callback = new URL(back.url);
        expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
        return { ...signedIn, code: callback.searchParams.get('code')! };
      }

      it('S27 SilentLogout ends the server session and the OIDC session like Logout, and lands on the inactivity page', async () => {
        const user = await gw.addUser({ displayName: 'Ida Idle' });
        const browser = new TestBrowser(issuer);
        const { cookie, token } = await signInWithCodeFlow(browser, user.username);
        expect((await fetch(`${issuer}/api/Account/ProfileImage`, { headers: { cookie } })).status).toBe(200);

        const before = listener.received.length;
        const out = await json(browser, '/api/Account/SilentLogout', {}, token);
        expect(out.status).toBe(209);
        expect(((await out.json()) as { redirect: string }).redirect).toBe(
          '/account/loggedout?reason=inactivity',
        );

        // The old cookie is dead (401), the application was told (back-channel logout), the OIDC session is gone.
        expect((await fetch(`${issuer}/api/Account/ProfileImage`, { headers: { cookie } })).status).toBe(401);
        expect(listener.received.length).toBe(before + 1);
        expect(decodeJwt(listener.received.at(-1)!.get('logout_token')!).payload.sub).toBe(user.id);
        expect((await silentAuthorize(issuer, browser)).searchParams.get('error')).toBe('login_required');
        const audit = await gw.store.audit.list({ userId: user.id });
        expect(audit.some((e) => e.kind === 'sign-out' && e.data.reason === 'inactivity')).toBe(true);
      });

      it('S30 SilentLogout without the anti-forgery header changes nothing', async () => {
        const user = await gw.addUser();
        const browser = new TestBrowser(issuer);
        const { cookie, token } = await signInWithCodeFlow(browser, user.username);
        const before = listener.received.length;
        for (const header of [undefined, 'forged.token']) {
          const refused = await json(browser, '/api/Account/SilentLogout', {}, header);
          expect(refused.status).toBe(400);
          expect(((await refused.json()) as { errors: Record<string, string[]> }).errors['']).toEqual([
            'antiforgeryInvalid',
          ]);
        }
        // Still signed in on the site and in the application's session.
        expect((await fetch(`${issuer}/api/Account/ProfileImage`, { headers: { cookie } })).status).toBe(200);
        expect(listener.received.length).toBe(before);
        expect((await silentAuthorize(issuer, browser)).searchParams.get('code')).toBeTruthy();
        // A bad body is the errors map, not a crash.
        expect((await json(browser, '/api/Account/SilentLogout', [], token)).status).toBe(400);
      });

      it('GetPartnerMetaData carries the partner idle sign-out (off by default)', async () => {
        const browser = new TestBrowser(issuer);
        const anti = (await (await browser.request('/api/Account/Antiforgery')).json()) as { token: string };
        const read = async () =>
          (
            (await (await json(browser, '/api/Account/GetPartnerMetaData', {}, anti.token)).json()) as {
              idleSignOutMinutes?: number;
            }
          ).idleSignOutMinutes;
        const partner =
          (await gw.store.partners.list())[0] ??
          (await gw.store.partners.create({ id: 'silent', name: 'Silent', isDefault: true }));
        expect(await read()).toBe(0);
        await gw.store.partners.update(partner.id, { idleSignOutMinutes: 7 });
        expect(await read()).toBe(7);
        await gw.store.partners.update(partner.id, { idleSignOutMinutes: 0 });
      });

      it('prompt=none with a signed-in session answers a code, without any page', async () => {
        const user = await gw.addUser();
        const browser = new TestBrowser(issuer);
        await signInWithCodeFlow(browser, user.username);
        const answer = await silentAuthorize(issuer, browser);
        expect(answer.origin + answer.pathname).toBe(REDIRECT_URI);
        expect(answer.searchParams.get('code')).toBeTruthy();
        expect(answer.searchParams.get('state')).toBe('st-1');
      });

      it('prompt=none with a session signed in on the site only (no application yet) answers a code', async () => {
        const user = await gw.addUser();
        const browser = new TestBrowser(issuer);
        await signInOnSite(browser, user.username);
        const answer = await silentAuthorize(issuer, browser);
        expect(answer.origin + answer.pathname).toBe(REDIRECT_URI);
        expect(answer.searchParams.get('error')).toBeNull();
        expect(answer.searchParams.get('code')).toBeTruthy();
      });

      /** An application's sign-in from this browser: where the provider sends it, and the interaction it resumes. */
      async function startApplicationSignIn(browser: TestBrowser, extra: Record<string, string> = {}) {
        const reached = await browser.follow(authorizeUrl(issuer, extra), ['/account/login']);
        const url = new URL(reached.url);
        return { url, returnUrl: url.searchParams.get('returnUrl') ?? '' };
      }

      async function silentLogin(browser: TestBrowser, returnUrl: string, token: string) {
        const res = await json(browser, '/api/Account/SilentLogin', { returnUrl }, token);
        return { status: res.status, body: await res.json() };
      }

      it('SilentLogin signs a remembered browser in to the application without typing', async () => {
        const user = await gw.addUser();
        const browser = new TestBrowser(issuer);
        const { token } = await signInOnSite(browser, user.username, { rememberMe: true });
        // A remembered sign-in's application sign-in passes the sign-in page (not straight single sign-on) ...
        const { url, returnUrl } = await startApplicationSignIn(browser);
        expect(url.pathname).toBe('/account/login');
        expect(returnUrl).toMatch(/^\/interaction\//);
        // ... whose SilentLogin answers the way on: the application, with a code, and no form.
        const answer = await silentLogin(browser, returnUrl, token);
        expect(answer.status).toBe(209);
        expect((answer.body as { redirect: string }).redirect).toBe(returnUrl);
        const back = new URL((await browser.follow(returnUrl)).url);
        expect(back.origin + back.pathname).toBe(REDIRECT_URI);
        expect(back.searchParams.get('code')).toBeTruthy();
        const audit = await gw.store.audit.list({ userId: user.id });
        expect(audit.some((e) => e.kind === 'sign-in.silent')).toBe(true);
      });

      it('SilentLogin answers false without a session, for a browser-session sign-in (shared computer), and for other targets', async () => {
        const user = await gw.addUser();
        // An application's sign-in in progress in a stranger's browser gives a live interaction to aim at.
        const stranger = new TestBrowser(issuer);
        const { returnUrl } = await startApplicationSignIn(stranger);
        const strangerToken = (
          (await (await stranger.request('/api/Account/Antiforgery')).json()) as {
            token: string;
          }
        ).token;
        expect(await silentLogin(stranger, returnUrl, strangerToken)).toEqual({ status: 200, body: false });

        // Signed in without remember-me: the next person at this computer must not be signed in silently.
        const shared = new TestBrowser(issuer);
        const { token } = await signInOnSite(shared, user.username);
        expect(await silentLogin(shared, returnUrl, token)).toEqual({ status: 200, body: false });

        // Remembered, but the target is not a live application sign-in.
        const remembered = new TestBrowser(issuer);
        const own = await signInOnSite(remembered, user.username, { rememberMe: true });
        for (const target of [
          '/account/',
          '/interaction/unknown-uid',
          'https://evil.example/',
          '//evil.example',
        ])
          expect(await silentLogin(remembered, target, own.token)).toEqual({ status: 200, body: false });
        // An application that demands a fresh sign-in (prompt=login) gets the form, not the remembered session.
        const forced = await startApplicationSignIn(remembered, { prompt: 'login' });
        expect(await silentLogin(remembered, forced.returnUrl, own.token)).toEqual({
          status: 200,
          body: false,
        });
        // Bad bodies are the errors map.
        expect((await json(remembered, '/api/Account/SilentLogin', { returnUrl: 5 }, own.token)).status).toBe(
          400,
        );
      });

      it('S30 SilentLogin without the anti-forgery header is refused', async () => {
        const user = await gw.addUser();
        const browser = new TestBrowser(issuer);
        await signInOnSite(browser, user.username, { rememberMe: true });
        const { returnUrl } = await startApplicationSignIn(browser);
        const refused = await json(browser, '/api/Account/SilentLogin', { returnUrl });
        expect(refused.status).toBe(400);
        expect(((await refused.json()) as { errors: Record<string, string[]> }).errors['']).toEqual([
          'antiforgeryInvalid',
        ]);
      });

      it('S21 SilentLogin facing an expired password asks for the password first: the remembered sign-in ends, the sign-in page comes', async () => {
        const user = await gw.addUser();
        const browser = new TestBrowser(issuer);
        const { token, cookie } = await signInOnSite(browser, user.username, { rememberMe: true });
        await gw.store.users.update(user.id, { passwordExpiresAt: Date.now() - 1000 });
        const { returnUrl } = await startApplicationSignIn(browser);
        const answer = await silentLogin(browser, returnUrl, token);
        expect(answer.status).toBe(209);
        // Not the change page (ADR 0039 asks no current password of a sign-in that proved it): the password first.
        expect((answer.body as { redirect: string }).redirect).toBe(
          `/account/login?returnUrl=${encodeURIComponent(returnUrl)}`,
        );
        // A new session id (S24): the remembered cookie is dead, nobody is signed in, no step is open.
        expect((await fetch(`${issuer}/api/Account/ProfileImage`, { headers: { cookie } })).status).toBe(401);
        const me = (await (await browser.request('/api/Account/User')).json()) as Record<string, unknown>;
        expect(me).toEqual({ isAuthenticated: false });
        const refused = await json(browser, '/api/Account/ChangeExpiredPassword', {
          newPassword: 'Another-Horse-7!',
          confirmPassword: 'Another-Horse-7!',
        });
        expect(refused.status).toBe(400);
        expect((await gw.store.users.findById(user.id))?.passwordHash).toBe(user.passwordHash);
        // The password then leads to the change page, as any sign-in with an expired password does.
        const again = await signInAgain(browser, user.username, returnUrl);
        expect(again).toBe(`/account/change-expired-password?returnUrl=${encodeURIComponent(returnUrl)}`);
      });

      it('SilentLogin walks the steps again: a second factor the remembered sign-in did not prove is asked for', async () => {
        const user = await gw.addUser();
        const browser = new TestBrowser(issuer);
        const { token } = await signInOnSite(browser, user.username, { rememberMe: true });
        // The account has a second factor now that this sign-in (amr pwd only) never passed, and this browser is
        // not remembered for it (a remembered browser that lapsed looks the same).
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
        const { returnUrl } = await startApplicationSignIn(browser);
        const answer = await silentLogin(browser, returnUrl, token);
        expect(answer.status).toBe(209);
        expect((answer.body as { redirect: string }).redirect).toMatch(/^\/account\/login\/twofactor\?/);
        const back = await browser.follow(returnUrl, ['/account/login']);
        // The application does not get a code past the step.
        expect(new URL(back.url).searchParams.get('code')).toBeNull();
      });

      /** The sign-in page's Login after a silent sign-in sent the browser there: answers the 209's target. */
      async function signInAgain(browser: TestBrowser, username: string, returnUrl: string): Promise<string> {
        const anti = (await (await browser.request('/api/Account/Antiforgery')).json()) as { token: string };
        const login = await json(
          browser,
          '/api/Account/Login',
          { username, password: TEST_PASSWORD, returnUrl },
          anti.token,
        );
        expect(login.status).toBe(209);
        return ((await login.json()) as { redirect: string }).redirect;
      }

      /**
       * Makes the remembered sign-in behind `cookie` an hour old (its recent window long lapsed), as if it had proved
       * `amr` then; answers its auth_time. The clock is the system's here (oidc-provider's), so the record is aged.
       */
      async function ageSignIn(cookie: string, amr?: string[]): Promise<number> {
        const key = sha256(cookie.slice('idp.session='.length));
        const stored = await gw.sessionStore.get(key);
        if (stored?.kind !== 'live' || !stored.record.data.account) throw new Error('no signed-in session');
        const account = stored.record.data.account;
        account.authTime -= 3600;
        if (amr) account.amr = amr;
        expect(await gw.sessionStore.update(key, stored.record, Date.now() + 30 * 86_400_000)).toBe(true);
        return account.authTime;
      }

      /** The three changes of the issue's attack, each refused 403 recentSignInRequired (S21). */
      async function expectChangesRefused(browser: TestBrowser, token: string) {
        for (const [call, body] of [
          ['RegenerateRecoveryCodes', {}],
          [
            'RequestEmailChange',
            { email: `attacker-${Math.random().toString(36).slice(2, 8)}@example.test` },
          ],
          ['UpdateProfile', { displayName: 'Mallory' }],
        ] as const) {
          const res = await json(browser, `/api/Account/${call}`, body, token);
          expect(res.status, call).toBe(403);
          expect(((await res.json()) as { errors: unknown }).errors, call).toEqual({
            '': ['recentSignInRequired'],
          });
        }
      }

      /** The signed-in session's auth_time as the gateway keeps it. */
      async function authTimeOf(browser: TestBrowser, token: string): Promise<number> {
        const view = await browser.request('/api/Account/SecurityCentreView', {
          headers: { 'x-csrf-token-value': token },
        });
        expect(view.status).toBe(200);
        return ((await view.json()) as { recentSignInUntil: number }).recentSignInUntil;
      }

      it('S21 a remembered session whose window lapsed stays lapsed after a silent sign-in through a customer selection: changes refused, auth_time the original one (also in the ID token)', async () => {
        const user = await gw.addUser();
        const browser = new TestBrowser(issuer);
        const { cookie } = await signInOnSite(browser, user.username, { rememberMe: true });
        // The account has a second factor, proved by the remembered sign-in an hour ago (amr mfa).
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
        const original = await ageSignIn(cookie, ['pwd', 'otp', 'mfa']);
        // A new membership: the account now belongs to two customers, so the customer selection applies again.
        const suffix = Math.random().toString(36).slice(2, 8);
        for (const name of ['North', 'South']) {
          await gw.store.customers.create({
            id: `${name}-${suffix}`,
            name: `${name} ${suffix}`,
            partnerId: null,
          });
          await gw.store.customers.addMembership({
            userId: user.id,
            customerId: `${name}-${suffix}`,
            roles: ['EMPLOYEE'],
          });
        }

        const reached = await browser.follow(authorizeUrl(issuer), ['/account/login']);
        const returnUrl = new URL(reached.url).searchParams.get('returnUrl')!;
        const anti = (await (await browser.request('/api/Account/Antiforgery')).json()) as { token: string };
        const answer = await silentLogin(browser, returnUrl, anti.token);
        expect(answer.status).toBe(209);
        const atStep = answer.body as { redirect: string; state: string };
        expect(atStep.redirect).toBe(`/account/select?returnUrl=${encodeURIComponent(returnUrl)}`);
        let { token } = (await (
          await json(browser, '/api/Account/Exchange', { state: atStep.state })
        ).json()) as { token: string };
        // The step proves nothing: choosing a customer.
        const chosen = await json(
          browser,
          '/api/Account/SelectCustomer',
          { customerId: `North-${suffix}` },
          token,
        );
        expect(chosen.status).toBe(209);
        const done = (await chosen.json()) as { redirect: string; state: string };
        expect(done.redirect).toBe(returnUrl);
        ({ token } = (await (await json(browser, '/api/Account/Exchange', { state: done.state })).json()) as {
          token: string;
        });

        // Signed in again, but not a recent full sign-in: the attacker's three changes are refused ...
        await expectChangesRefused(browser, token);
        expect(await authTimeOf(browser, token)).toBe(0);
        const session = await gw.sessionStore.get(
          sha256(sessionCookieOfJar(browser)!.slice('idp.session='.length)),
        );
        expect(session?.kind === 'live' && session.record.data.account?.authTime).toBe(original);
        // ... and the application is told the original sign-in time: its sign-in finishes on it, and an
        // authorization asking for it (max_age, so the ID token carries auth_time) answers it from that OIDC session.
        const first = new URL((await browser.follow(returnUrl)).url);
        expect(first.origin + first.pathname).toBe(REDIRECT_URI);
        expect(first.searchParams.get('code')).toBeTruthy();
        const pkce = pkcePair();
        const again = new URL(
          (
            await browser.follow(
              authorizeUrl(issuer, { code_challenge: pkce.challenge, max_age: String(30 * 86_400) }),
              ['/account/login', '/account/select'],
            )
          ).url,
        );
        expect(again.origin + again.pathname).toBe(REDIRECT_URI);
        const tokens = (await (
          await fetch(`${issuer}/connect/token`, {
            method: 'POST',
            body: new URLSearchParams({
              grant_type: 'authorization_code',
              code: again.searchParams.get('code')!,
              redirect_uri: REDIRECT_URI,
              client_id: CLIENT_ID,
              code_verifier: pkce.verifier,
            }),
          })
        ).json()) as { id_token: string };
        expect(decodeJwt(tokens.id_token).payload.auth_time).toBe(original);
      });

      it('S21 a silent sign-in facing a 2FA set-up an administrator now requires asks for the password first: the cookie holder cannot enrol an authenticator', async () => {
        const user = await gw.addUser();
        const browser = new TestBrowser(issuer);
        const { cookie } = await signInOnSite(browser, user.username, { rememberMe: true });
        await ageSignIn(cookie);
        await gw.store.users.update(user.id, { requiresTwoFactor: true });

        const { returnUrl } = await startApplicationSignIn(browser);
        const anti = (await (await browser.request('/api/Account/Antiforgery')).json()) as { token: string };
        const answer = await silentLogin(browser, returnUrl, anti.token);
        expect(answer.status).toBe(209);
        const next = answer.body as { redirect: string; state: string };
        expect(next.redirect).toBe(`/account/login?returnUrl=${encodeURIComponent(returnUrl)}`);
        const { token } = (await (
          await json(browser, '/api/Account/Exchange', { state: next.state })
        ).json()) as { token: string };

        // Nobody is signed in and no step is open: the set-up's calls are refused, so are the changes.
        expect((await fetch(`${issuer}/api/Account/ProfileImage`, { headers: { cookie } })).status).toBe(401);
        const profile = await json(browser, '/api/Account/UpdateProfile', { displayName: 'Mallory' }, token);
        expect(profile.status, await profile.text()).toBe(401);
        expect(await (await browser.request('/api/Account/User')).json()).toEqual({ isAuthenticated: false });
        expect((await browser.request('/api/Account/Setup2FAView')).status).not.toBe(200);
        expect(await gw.store.users.hasSecondFactor(user.id)).toBe(false);
        const audit = await gw.store.audit.list({ userId: user.id });
        expect(audit.find((e) => e.kind === 'sign-in.silent')?.data).toEqual({
          step: 'two-factor-setup',
          passwordRequired: true,
        });

        // The sign-in page keeps the username; the password then leads to the set-up.
        const view = (await (
          await browser.request(`/api/Account/LoginView?returnUrl=${encodeURIComponent(returnUrl)}`)
        ).json()) as { username?: string };
        expect(view.username).toBe(user.username);
        expect(await signInAgain(browser, user.username, returnUrl)).toBe(
          `/account/setup-twofactor?returnUrl=${encodeURIComponent(returnUrl)}`,
        );
      });

      it('prompt=none for a remembered session answers a code too (no sign-in page), and a third-party client gets consent_required', async () => {
        const user = await gw.addUser();
        const browser = new TestBrowser(issuer);
        await signInOnSite(browser, user.username, { rememberMe: true });
        const answer = await silentAuthorize(issuer, browser);
        expect(answer.origin + answer.pathname).toBe(REDIRECT_URI);
        expect(answer.searchParams.get('code')).toBeTruthy();

        const thirdParty = `third-${Math.random().toString(36).slice(2, 8)}`;
        await gw.store.clients.create({
          clientId: thirdParty,
          name: 'Someone else',
          redirectUris: [REDIRECT_URI],
          firstParty: false,
        });
        const other = await browser.follow(authorizeUrl(issuer, { prompt: 'none', client_id: thirdParty }), [
          '/account/login',
          '/account/select',
        ]);
        const refused = new URL(other.url);
        expect(refused.origin + refused.pathname).toBe(REDIRECT_URI);
        expect(refused.searchParams.get('error')).toBe('consent_required');
      });

      it('prompt=none without a session answers login_required to the redirect_uri', async () => {
        const browser = new TestBrowser(issuer);
        const answer = await silentAuthorize(issuer, browser);
        expect(answer.origin + answer.pathname).toBe(REDIRECT_URI);
        expect(answer.searchParams.get('error')).toBe('login_required');
        expect(answer.searchParams.get('state')).toBe('st-1');
      });
    },
  );
}
