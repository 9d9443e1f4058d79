/**
 * Sign-out with a live OIDC session from a real code flow, through the gateway's own Logout call (S27):
 * the server session ends (the old cookie gets 401), the OIDC session ends (prompt=none → login_required), tokens
 * die, back-channel logout reaches the client's listener, and the browser lands on the logged-out page whose
 * "Return to <client>" link comes from the server's record, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../cli/admin.js';
import {
  pkcePair,
  startBackchannelListener,
  TestBrowser,
  verifyJwt,
  decodeJwt,
  type BackchannelListener,
} from '../testing/oidc-harness.js';
import { BACKENDS, TEST_PASSWORD, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

const CLIENT_ID = 'portal-s27';
const REDIRECT_URI = 'http://localhost:4000/callback';
const POST_LOGOUT_URI = 'http://localhost:4000/';

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
    ...extra,
  }).toString();
  return url.href;
}

/** The browser's OIDC session is gone: a silent authorize answers login_required to the client. */
async function expectOidcSessionEnded(issuer: string, browser: TestBrowser): Promise<void> {
  const silent = await browser.follow(
    authorizeUrl(issuer, {
      prompt: 'none',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    }),
    ['/account/login'],
  );
  expect(new URL(silent.url).searchParams.get('error')).toBe('login_required');
}

function sessionCookie(response: Response): string | undefined {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.startsWith('idp.session='));
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `sign-out with a live OIDC session (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
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
          postLogoutRedirectUris: [POST_LOGOUT_URI],
          backchannelLogoutUri: listener.url,
        });
      });

      afterAll(async () => {
        await gw?.close();
        await listener?.close();
      });

      /** Signs in through the real sign-in API from an authorize request; answers the tokens and the session cookie. */
      async function signInWithCodeFlow(browser: TestBrowser) {
        const user = await gw.addUser({ displayName: 'Sam Signout' });
        const pkce = pkcePair();
        const toLogin = await browser.follow(
          authorizeUrl(issuer, { code_challenge: pkce.challenge, code_challenge_method: 'S256' }),
          ['/account/login'],
        );
        const returnUrl = new URL(toLogin.url).searchParams.get('returnUrl')!;
        expect(returnUrl).toMatch(/^\/interaction\//);

        const anti = (await (await browser.request('/api/Account/Antiforgery')).json()) as { token: string };
        const login = await json(
          browser,
          '/api/Account/Login',
          { username: user.username, password: TEST_PASSWORD, returnUrl },
          anti.token,
        );
        expect(login.status).toBe(209);
        const cookie = sessionCookie(login)!;
        const step = (await login.json()) as { redirect: string; state: string };
        const exchanged = (await (
          await json(browser, '/api/Account/Exchange', { state: step.state })
        ).json()) as { token: string };

        const back = await browser.follow(step.redirect);
        const callback = new URL(back.url);
        expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
        const code = callback.searchParams.get('code')!;
        const tokenResponse = await fetch(`${issuer}/connect/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            redirect_uri: REDIRECT_URI,
            client_id: CLIENT_ID,
            code_verifier: pkce.verifier,
          }),
        });
        expect(tokenResponse.status).toBe(200);
        const tokens = (await tokenResponse.json()) as { id_token: string; access_token: string };
        return { user, cookie, token: exchanged.token, tokens };
      }

      it('S27 Logout ends the server session, the OIDC session and tokens, sends back-channel logout, then the logged-out page', async () => {
        const browser = new TestBrowser(issuer);
        const { user, cookie, token, tokens } = await signInWithCodeFlow(browser);
        const sid = decodeJwt(tokens.id_token).payload.sid;
        expect((await fetch(`${issuer}/api/Account/ProfileImage`, { headers: { cookie } })).status).toBe(200);

        // RP-initiated logout with id_token_hint: the provider hands over to the sign-in site's sign-out page.
        const end = new URL('/connect/endsession', issuer);
        end.search = new URLSearchParams({
          id_token_hint: tokens.id_token,
          post_logout_redirect_uri: POST_LOGOUT_URI,
          state: 'bye',
        }).toString();
        const handover = await browser.request(end.href);
        const logoutPage = new URL(handover.headers.get('location')!, issuer);
        expect(logoutPage.pathname).toBe('/account/logout');
        const logoutId = logoutPage.searchParams.get('logoutId')!;
        const view = (await (
          await json(browser, `/api/Account/LogoutView?logoutId=${encodeURIComponent(logoutId)}`, {}, token)
        ).json()) as Record<string, unknown>;
        expect(view).toMatchObject({ showLogoutPrompt: false, clientName: 'Payroll portal' });
        expect(view.postLogoutRedirectUri).toBeUndefined();

        const before = listener.received.length;
        const out = await json(browser, '/api/Account/Logout', { logoutId }, token);
        expect(out.status).toBe(209);
        const step = (await out.json()) as { redirect: string; state: string };
        // Always the logged-out page, never straight to the client.
        const loggedOut = new URL(step.redirect, issuer);
        expect(loggedOut.pathname).toBe('/account/loggedout');
        const finishedId = loggedOut.searchParams.get('logoutId')!;
        expect(finishedId).toBeTruthy();
        expect(finishedId).not.toBe(logoutId);

        // The server session is dead: the old cookie gets 401 on an authenticated call, and is anonymous for User.
        const image = await fetch(`${issuer}/api/Account/ProfileImage`, { headers: { cookie } });
        expect(image.status).toBe(401);
        expect(((await image.json()) as { errors: Record<string, string[]> }).errors['']).toEqual([
          'notAuthenticated',
        ]);
        const me = await fetch(`${issuer}/api/Account/User`, { headers: { cookie } });
        expect(await me.json()).toEqual({ isAuthenticated: false });

        // Back-channel logout reached the client's listener, signed by the provider, for this user and session.
        expect(listener.received.length).toBe(before + 1);
        const claims = await verifyJwt(
          listener.received.at(-1)!.get('logout_token')!,
          `${issuer}/connect/jwks`,
        );
        expect(claims).toMatchObject({ iss: issuer, aud: CLIENT_ID, sub: user.id, sid });

        // Tokens of the ended session are revoked.
        const userinfo = await fetch(`${issuer}/connect/userinfo`, {
          headers: { authorization: `Bearer ${tokens.access_token}` },
        });
        expect(userinfo.status).toBe(401);

        // The logged-out page's question: the return link from the server's record, answered once to this browser.
        const fresh = (await (
          await json(browser, '/api/Account/Exchange', { state: step.state })
        ).json()) as { token: string };
        const stranger = new TestBrowser(issuer);
        const strangerView = await stranger.request(
          `/api/Account/LogoutView?logoutId=${encodeURIComponent(finishedId)}`,
        );
        expect(((await strangerView.json()) as Record<string, unknown>).loggedOut).toBeUndefined();
        const expected = {
          logoutId: finishedId,
          showLogoutPrompt: false,
          loggedOut: true,
          clientName: 'Payroll portal',
          postLogoutRedirectUri: `${POST_LOGOUT_URI}?state=bye`,
        };
        // A GET never changes state: reading twice answers the same record.
        for (let i = 0; i < 2; i += 1) {
          const read = await browser.request(
            `/api/Account/LogoutView?logoutId=${encodeURIComponent(finishedId)}`,
          );
          expect(await read.json()).toEqual(expected);
        }
        // The page's POST uses the record up: answered once, then never again.
        const finished = await json(
          browser,
          `/api/Account/LogoutView?logoutId=${encodeURIComponent(finishedId)}`,
          {},
          fresh.token,
        );
        expect(await finished.json()).toEqual(expected);
        const again = await json(
          browser,
          `/api/Account/LogoutView?logoutId=${encodeURIComponent(finishedId)}`,
          {},
          fresh.token,
        );
        expect(((await again.json()) as Record<string, unknown>).loggedOut).toBeUndefined();

        // The OIDC session is gone: a silent authorize answers login_required to the client.
        await expectOidcSessionEnded(issuer, browser);
      });

      it('admin sessions revoke ends every session, OIDC session and token of the user at once', async () => {
        const first = new TestBrowser(issuer);
        const second = new TestBrowser(issuer);
        const a = await signInWithCodeFlow(first);
        const username = a.user.username;
        // A second browser of the same user, signed in with the password too.
        const anti = (await (await second.request('/api/Account/Antiforgery')).json()) as { token: string };
        const login = await json(
          second,
          '/api/Account/Login',
          { username, password: TEST_PASSWORD },
          anti.token,
        );
        expect(login.status).toBe(209);
        const secondCookie = sessionCookie(login)!;
        expect(
          (await fetch(`${issuer}/api/Account/ProfileImage`, { headers: { cookie: secondCookie } })).status,
        ).toBe(200);

        const lines: string[] = [];
        await runAdminCommand(
          gw.store,
          ['sessions', 'revoke', '--user', username],
          (line) => lines.push(line),
          { redis: gw.redis },
        );
        expect(lines.join('\n')).toMatch(/1 OIDC session\(s\) and 1 grant\(s\)/);

        for (const cookie of [a.cookie, secondCookie]) {
          expect((await fetch(`${issuer}/api/Account/ProfileImage`, { headers: { cookie } })).status).toBe(
            401,
          );
        }
        const userinfo = await fetch(`${issuer}/connect/userinfo`, {
          headers: { authorization: `Bearer ${a.tokens.access_token}` },
        });
        expect(userinfo.status).toBe(401);
        await expectOidcSessionEnded(issuer, first);
      });

      it('S29 disabling an account ends all its sessions and tokens at once', async () => {
        const browser = new TestBrowser(issuer);
        const a = await signInWithCodeFlow(browser);
        const username = a.user.username;
        expect(
          (await fetch(`${issuer}/api/Account/ProfileImage`, { headers: { cookie: a.cookie } })).status,
        ).toBe(200);

        const lines: string[] = [];
        await runAdminCommand(
          gw.store,
          ['users', 'disable', '--username', username],
          (line) => lines.push(line),
          {
            redis: gw.redis,
          },
        );
        expect(lines.join('\n')).toMatch(
          /disabled; every sign-in session ended; 1 OIDC session\(s\) and 1 grant\(s\)/,
        );

        expect(
          (await fetch(`${issuer}/api/Account/ProfileImage`, { headers: { cookie: a.cookie } })).status,
        ).toBe(401);
        const userinfo = await fetch(`${issuer}/connect/userinfo`, {
          headers: { authorization: `Bearer ${a.tokens.access_token}` },
        });
        expect(userinfo.status).toBe(401);
        await expectOidcSessionEnded(issuer, browser);
        // The password no longer signs in either, with the same answer as a wrong password (S10).
        const anti = (await (await browser.request('/api/Account/Antiforgery')).json()) as { token: string };
        const again = await json(
          browser,
          '/api/Account/Login',
          { username, password: TEST_PASSWORD },
          anti.token,
        );
        expect(again.status).toBe(400);
        await runAdminCommand(
          gw.store,
          ['users', 'disable', '--username', username, '--enable'],
          () => undefined,
          {
            redis: gw.redis,
          },
        );
      });

      /** Sends the browser to the end-session endpoint; answers the logoutId of the sign-in site's page. */
      async function endSession(browser: TestBrowser, idTokenHint: string): Promise<string> {
        const end = new URL('/connect/endsession', issuer);
        end.search = new URLSearchParams({
          id_token_hint: idTokenHint,
          post_logout_redirect_uri: POST_LOGOUT_URI,
          state: 'bye',
        }).toString();
        const handover = await browser.request(end.href);
        expect(handover.status).toBe(303);
        const page = new URL(handover.headers.get('location')!, issuer);
        expect(page.pathname).toBe('/account/logout');
        return page.searchParams.get('logoutId')!;
      }

      it('S27 an end-session for a browser signed in on the site without an OIDC session ends the site session too', async () => {
        // The user's ID token comes from an application in another browser.
        const other = new TestBrowser(issuer);
        const { user, tokens } = await signInWithCodeFlow(other);
        // This browser is signed in on the site only: no application was opened here, so no OIDC session.
        const browser = new TestBrowser(issuer);
        const anti = (await (await browser.request('/api/Account/Antiforgery')).json()) as { token: string };
        const login = await json(
          browser,
          '/api/Account/Login',
          { username: user.username, password: TEST_PASSWORD },
          anti.token,
        );
        expect(login.status).toBe(209);
        const cookie = sessionCookie(login)!;
        const step = (await login.json()) as { state: string };
        const { token } = (await (
          await json(browser, '/api/Account/Exchange', { state: step.state })
        ).json()) as { token: string };

        // The end-session hands over to the site's sign-out page instead of going straight back to the client.
        const logoutId = await endSession(browser, tokens.id_token);
        const out = await json(browser, '/api/Account/Logout', { logoutId }, token);
        expect(out.status).toBe(209);
        expect(new URL(((await out.json()) as { redirect: string }).redirect, issuer).pathname).toBe(
          '/account/loggedout',
        );

        // The site session is over, and the next authorization asks for a sign-in instead of issuing a code.
        const me = await fetch(`${issuer}/api/Account/User`, { headers: { cookie } });
        expect(await me.json()).toEqual({
          isAuthenticated: false,
        });
        const next = await browser.follow(
          authorizeUrl(issuer, { code_challenge: pkcePair().challenge, code_challenge_method: 'S256' }),
          ['/account/login'],
        );
        expect(new URL(next.url).pathname).toBe('/account/login');
      });

      it('S32 an id_token_hint issued to another user does not sign the current user out without asking', async () => {
        const { tokens: someoneElses } = await signInWithCodeFlow(new TestBrowser(issuer));
        const browser = new TestBrowser(issuer);
        const { token, tokens: own } = await signInWithCodeFlow(browser);

        const foreign = await endSession(browser, someoneElses.id_token);
        const foreignView = (await (
          await json(browser, `/api/Account/LogoutView?logoutId=${encodeURIComponent(foreign)}`, {}, token)
        ).json()) as Record<string, unknown>;
        expect(foreignView.showLogoutPrompt).toBe(true);

        // The user's own hint, from this browser's session, is the proof: no question.
        const ownId = await endSession(browser, own.id_token);
        const ownView = (await (
          await json(browser, `/api/Account/LogoutView?logoutId=${encodeURIComponent(ownId)}`, {}, token)
        ).json()) as Record<string, unknown>;
        expect(ownView.showLogoutPrompt).toBe(false);
      });

      it('S32 an id_token_hint of the same user from another browser session still asks', async () => {
        const first = new TestBrowser(issuer);
        const { user, tokens: fromFirst } = await signInWithCodeFlow(first);
        // The same user in a second browser, with its own OIDC session (another sid).
        const second = new TestBrowser(issuer);
        const pkce = pkcePair();
        const toLogin = await second.follow(
          authorizeUrl(issuer, { code_challenge: pkce.challenge, code_challenge_method: 'S256' }),
          ['/account/login'],
        );
        const anti = (await (await second.request('/api/Account/Antiforgery')).json()) as { token: string };
        const login = await json(
          second,
          '/api/Account/Login',
          {
            username: user.username,
            password: TEST_PASSWORD,
            returnUrl: new URL(toLogin.url).searchParams.get('returnUrl'),
          },
          anti.token,
        );
        const step = (await login.json()) as { redirect: string; state: string };
        const { token } = (await (
          await json(second, '/api/Account/Exchange', { state: step.state })
        ).json()) as { token: string };
        expect(new URL((await second.follow(step.redirect)).url).searchParams.get('code')).toBeTruthy();

        const logoutId = await endSession(second, fromFirst.id_token);
        const view = (await (
          await json(second, `/api/Account/LogoutView?logoutId=${encodeURIComponent(logoutId)}`, {}, token)
        ).json()) as Record<string, unknown>;
        expect(view.showLogoutPrompt).toBe(true);
      });

      it('a sign-out started on the site itself lands on the plain logged-out page', async () => {
        const browser = new TestBrowser(issuer);
        const { token } = await signInWithCodeFlow(browser);
        const before = listener.received.length;
        const out = await json(browser, '/api/Account/Logout', {}, token);
        expect(out.status).toBe(209);
        expect(((await out.json()) as { redirect: string }).redirect).toBe('/account/loggedout');
        // The OIDC session of that browser ended as well, with back-channel logout to the client.
        expect(listener.received.length).toBe(before + 1);
      });
    },
  );
}
