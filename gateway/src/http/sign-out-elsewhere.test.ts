/**
 * An ended session ends everywhere (issue 48, finding 4; S27, S29): the security centre's `SignOutSession` and
 * `SignOutOtherSessions`, `admin sessions revoke` and `admin users disable` end the OIDC sessions of the site
 * sessions they end, through the steps Logout uses: a real relying party's back-channel listener receives a signed
 * logout token with the session's `sid` and the user's `sub`, and the ended sessions' refresh tokens (offline_access,
 * which outlive a browser's own sign-out) are refused. The browser that asks keeps its applications.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../cli/admin.js';
import {
  decodeJwt,
  pkcePair,
  startBackchannelListener,
  TestBrowser,
  verifyJwt,
  type BackchannelListener,
} from '../testing/oidc-harness.js';
import { BACKENDS, TEST_PASSWORD, startTestGateway, type TestGateway } from '../testing/test-gateway.js';
import type { User } from '../store/user.repository.js';

const CLIENT_ID = 'payroll-elsewhere';
const REDIRECT_URI = 'http://localhost:4000/callback';

function json(browser: TestBrowser, url: string, body: unknown, token?: string): Promise<Response> {
  return browser.request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-csrf-token-value': token } : {}) },
    body: JSON.stringify(body),
  });
}

function authorizeUrl(issuer: string, extra: Record<string, string>): string {
  const url = new URL('/connect/authorize', issuer);
  url.search = new URLSearchParams({
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'openid profile offline_access',
    prompt: 'consent',
    state: 'st-1',
    nonce: 'n-1',
    ...extra,
  }).toString();
  return url.href;
}

/** One browser signed in at the relying party through the provider: its site token, its RP's tokens and `sid`. */
interface SignedInBrowser {
  browser: TestBrowser;
  /** Anti-forgery token of the browser's signed-in session. */
  token: string;
  idToken: string;
  refreshToken: string;
  sid: string;
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `an ended session ends in the applications too (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
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
          name: 'Payroll',
          redirectUris: [REDIRECT_URI],
          backchannelLogoutUri: listener.url,
        });
      });

      afterAll(async () => {
        await gw?.close();
        await listener?.close();
      });

      async function redeem(code: string, verifier: string) {
        const response = await fetch(`${issuer}/connect/token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            redirect_uri: REDIRECT_URI,
            client_id: CLIENT_ID,
            code_verifier: verifier,
          }),
        });
        expect(response.status).toBe(200);
        return (await response.json()) as { id_token: string; refresh_token?: string };
      }

      /** The RP's refresh: 200 with new tokens, or 400 invalid_grant once the grant is gone. */
      async function refresh(
        refreshToken: string,
      ): Promise<{ status: number; body: Record<string, string> }> {
        const response = await fetch(`${issuer}/connect/token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            refresh_token: refreshToken,
            client_id: CLIENT_ID,
          }),
        });
        return { status: response.status, body: (await response.json()) as Record<string, string> };
      }

      /** A new browser signs in at the relying party: authorize → the sign-in page → password → code → tokens. */
      async function signInAtRp(user: User): Promise<SignedInBrowser> {
        const browser = new TestBrowser(issuer);
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
        const step = (await login.json()) as { redirect: string; state: string };
        const { token } = (await (
          await json(browser, '/api/Account/Exchange', { state: step.state })
        ).json()) as { token: string };
        const back = new URL((await browser.follow(step.redirect)).url);
        expect(back.origin + back.pathname).toBe(REDIRECT_URI);
        const tokens = await redeem(back.searchParams.get('code')!, pkce.verifier);
        expect(tokens.refresh_token).toBeTruthy();
        const sid = decodeJwt(tokens.id_token).payload.sid as string;
        expect(sid).toBeTruthy();
        return { browser, token, idToken: tokens.id_token, refreshToken: tokens.refresh_token!, sid };
      }

      /** The browser's RP session is alive: a silent authorize gives the RP a code (single sign-on). */
      async function expectRpSessionAlive(signedIn: SignedInBrowser): Promise<void> {
        const pkce = pkcePair();
        const silent = await signedIn.browser.follow(
          authorizeUrl(issuer, {
            prompt: 'none',
            scope: 'openid profile',
            code_challenge: pkce.challenge,
            code_challenge_method: 'S256',
          }),
          ['/account/login'],
        );
        const url = new URL(silent.url);
        expect(url.origin + url.pathname).toBe(REDIRECT_URI);
        expect(url.searchParams.get('code'), silent.url).toBeTruthy();
      }

      /** The browser's RP session is gone: a silent authorize answers login_required. */
      async function expectRpSessionEnded(signedIn: SignedInBrowser): Promise<void> {
        const pkce = pkcePair();
        const silent = await signedIn.browser.follow(
          authorizeUrl(issuer, {
            prompt: 'none',
            scope: 'openid profile',
            code_challenge: pkce.challenge,
            code_challenge_method: 'S256',
          }),
          ['/account/login'],
        );
        expect(new URL(silent.url).searchParams.get('error')).toBe('login_required');
      }

      /** The logout tokens received since `before`, verified against the provider's keys. */
      async function logoutTokensSince(before: number): Promise<Record<string, unknown>[]> {
        const tokens = listener.received.slice(before).map((body) => body.get('logout_token')!);
        return Promise.all(tokens.map((token) => verifyJwt(token, `${issuer}/connect/jwks`)));
      }

      function expectLogoutToken(claims: Record<string, unknown>, user: User, sid: string): void {
        expect(claims).toMatchObject({ iss: issuer, aud: CLIENT_ID, sub: user.id, sid });
        expect(claims.events).toEqual({ 'http://schemas.openid.net/event/backchannel-logout': {} });
        expect(claims.nonce).toBeUndefined();
      }

      /** The security centre's handle of the browser's own session. */
      async function ownHandle(signedIn: SignedInBrowser): Promise<string> {
        const view = await signedIn.browser.request('/api/Account/SecurityCentreView');
        expect(view.status).toBe(200);
        const sessions = ((await view.json()) as { sessions: { id: string; current: boolean }[] }).sessions;
        return sessions.find((s) => s.current)!.id;
      }

      it('S27 SignOutSession of the other browser sends its back-channel logout and ends its refresh token; this browser keeps its application', async () => {
        const user = await gw.addUser({ displayName: 'Ada Elsewhere' });
        const mine = await signInAtRp(user);
        const intruder = await signInAtRp(user);
        expect(intruder.sid).not.toBe(mine.sid);

        const before = listener.received.length;
        const out = await json(
          mine.browser,
          '/api/Account/SignOutSession',
          { id: await ownHandle(intruder) },
          mine.token,
        );
        expect(out.status).toBe(200);

        const claims = await logoutTokensSince(before);
        expect(claims).toHaveLength(1);
        expectLogoutToken(claims[0]!, user, intruder.sid);
        const refused = await refresh(intruder.refreshToken);
        expect(refused.status).toBe(400);
        expect(refused.body.error).toBe('invalid_grant');
        await expectRpSessionEnded(intruder);

        // This browser's application is untouched: its refresh token works, its RP session signs in silently.
        expect((await refresh(mine.refreshToken)).status).toBe(200);
        await expectRpSessionAlive(mine);
      });

      it('S27 SignOutOtherSessions sends back-channel logout for every other browser and ends their refresh tokens; this browser keeps its application', async () => {
        const user = await gw.addUser({ displayName: 'Bo Elsewhere' });
        const mine = await signInAtRp(user);
        const second = await signInAtRp(user);
        const third = await signInAtRp(user);

        const before = listener.received.length;
        const out = await json(mine.browser, '/api/Account/SignOutOtherSessions', {}, mine.token);
        expect(out.status).toBe(200);

        const claims = await logoutTokensSince(before);
        expect(claims.map((c) => c.sid).sort()).toEqual([second.sid, third.sid].sort());
        for (const c of claims) expectLogoutToken(c, user, c.sid as string);
        for (const other of [second, third]) {
          expect((await refresh(other.refreshToken)).body.error).toBe('invalid_grant');
          await expectRpSessionEnded(other);
        }
        expect((await refresh(mine.refreshToken)).status).toBe(200);
        await expectRpSessionAlive(mine);
      });

      it('S27 admin sessions revoke sends back-channel logout for every browser of the user and ends every refresh token', async () => {
        const user = await gw.addUser({ displayName: 'Cy Elsewhere' });
        const first = await signInAtRp(user);
        const second = await signInAtRp(user);

        const before = listener.received.length;
        await runAdminCommand(
          gw.store,
          ['sessions', 'revoke', '--user', user.username],
          () => undefined,
          { redis: gw.redis },
          issuer,
        );

        const claims = await logoutTokensSince(before);
        expect(claims.map((c) => c.sid).sort()).toEqual([first.sid, second.sid].sort());
        for (const c of claims) expectLogoutToken(c, user, c.sid as string);
        for (const browser of [first, second]) {
          expect((await refresh(browser.refreshToken)).body.error).toBe('invalid_grant');
          await expectRpSessionEnded(browser);
        }
      });

      it('S29 admin users disable sends back-channel logout for every browser of the user and ends every refresh token', async () => {
        const user = await gw.addUser({ displayName: 'Di Elsewhere' });
        const first = await signInAtRp(user);
        const second = await signInAtRp(user);

        const before = listener.received.length;
        await runAdminCommand(
          gw.store,
          ['users', 'disable', '--username', user.username],
          () => undefined,
          { redis: gw.redis },
          issuer,
        );

        const claims = await logoutTokensSince(before);
        expect(claims.map((c) => c.sid).sort()).toEqual([first.sid, second.sid].sort());
        for (const c of claims) expectLogoutToken(c, user, c.sid as string);
        for (const browser of [first, second]) {
          expect((await refresh(browser.refreshToken)).body.error).toBe('invalid_grant');
          await expectRpSessionEnded(browser);
        }
      });
    },
  );
}
