/**
 * The OIDC session follows the site session (ADR 0006), on the whole gateway with the real sign-in API and a
 * movable clock for the site session's idle timeout: an application gets a code from an existing OIDC session only
 * while the site session that made it is alive, for the same account and sign-in; the OIDC cookie is a browser
 * session cookie unless remember-me was chosen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeJwt,
  pkcePair,
  startBackchannelListener,
  TestBrowser,
  verifyJwt,
  type BackchannelListener,
} from '../testing/oidc-harness.js';
import { BACKENDS, TEST_PASSWORD, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

const CLIENT_ID = 'portal-one-truth';
const REDIRECT_URI = 'http://localhost:4000/callback';
const MINUTE = 60_000;

function json(browser: TestBrowser, url: string, body: unknown, token?: string): Promise<Response> {
  return browser.request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-csrf-token-value': token } : {}) },
    body: JSON.stringify(body),
  });
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `the OIDC session follows the site session (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      let listener: BackchannelListener;
      let issuer: string;

      beforeAll(async () => {
        listener = await startBackchannelListener();
        gw = await startTestGateway({ backend: backend.name, oidc: true });
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

      function authorizeUrl(extra: Record<string, string> = {}): { url: string; verifier: string } {
        const pkce = pkcePair();
        const url = new URL('/connect/authorize', issuer);
        url.search = new URLSearchParams({
          client_id: CLIENT_ID,
          redirect_uri: REDIRECT_URI,
          response_type: 'code',
          scope: 'openid profile',
          state: 'st-1',
          nonce: 'n-1',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
          ...extra,
        }).toString();
        return { url: url.href, verifier: pkce.verifier };
      }

      /** Signs in on the site through the API (optionally from an interaction's returnUrl); answers the 209 target. */
      async function siteSignIn(
        browser: TestBrowser,
        username: string,
        options: { returnUrl?: string; rememberMe?: boolean } = {},
      ): Promise<string> {
        const anti = (await (await browser.request('/api/Account/Antiforgery')).json()) as { token: string };
        const login = await json(
          browser,
          '/api/Account/Login',
          {
            username,
            password: TEST_PASSWORD,
            rememberMe: options.rememberMe ?? false,
            ...(options.returnUrl ? { returnUrl: options.returnUrl } : {}),
          },
          anti.token,
        );
        expect(login.status).toBe(209);
        const step = (await login.json()) as { redirect: string; state: string };
        expect((await json(browser, '/api/Account/Exchange', { state: step.state })).status).toBe(200);
        return step.redirect;
      }

      /** Redeems a code and answers the ID token's claims. */
      async function subjectOf(code: string, verifier: string): Promise<Record<string, unknown>> {
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
        const tokens = (await response.json()) as { id_token: string };
        return verifyJwt(tokens.id_token, `${issuer}/connect/jwks`);
      }

      /** What the application sees for an authorization: a code, an error, or the sign-in page (interaction). */
      async function openPortal(browser: TestBrowser, extra: Record<string, string> = {}) {
        const { url, verifier } = authorizeUrl(extra);
        const landed = new URL((await browser.follow(url, ['/account/login'])).url);
        return {
          landed,
          verifier,
          signInPage: landed.pathname === '/account/login',
          code: landed.searchParams.get('code'),
          error: landed.searchParams.get('error'),
        };
      }

      /** A user signs in to the portal in `browser` from scratch; answers the ID token's claims. */
      async function signInToPortal(browser: TestBrowser, username: string, rememberMe = false) {
        const first = await openPortal(browser);
        expect(first.signInPage, first.landed.href).toBe(true);
        const returnUrl = first.landed.searchParams.get('returnUrl')!;
        expect(returnUrl).toMatch(/^\/interaction\//);
        const back = await siteSignIn(browser, username, { returnUrl, rememberMe });
        const callback = new URL((await browser.follow(back)).url);
        expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
        const code = callback.searchParams.get('code');
        expect(code, callback.href).toBeTruthy();
        return subjectOf(code!, first.verifier);
      }

      async function isSignedIn(browser: TestBrowser): Promise<boolean> {
        const me = (await (await browser.request('/api/Account/User')).json()) as {
          isAuthenticated: boolean;
        };
        return me.isAuthenticated;
      }

      it('S28 shared computer: after the idle timeout the next user sees the sign-in page, never a code for the first', async () => {
        const alice = await gw.addUser({ displayName: 'Alice' });
        const bob = await gw.addUser({ displayName: 'Bob' });
        const browser = new TestBrowser(issuer);
        expect((await signInToPortal(browser, alice.username)).sub).toBe(alice.id);

        // Alice walks away; the site session's idle timeout passes.
        gw.clock.advance(31 * MINUTE);
        expect(await isSignedIn(browser)).toBe(false);

        // A silent check of the application learns nobody is signed in.
        const silent = await openPortal(browser, { prompt: 'none' });
        expect(silent.code).toBeNull();
        expect(silent.error).toBe('login_required');

        // Bob opens the portal: the sign-in page (the interaction), not a code for Alice.
        const bobs = await openPortal(browser);
        expect(bobs.code).toBeNull();
        expect(bobs.signInPage, bobs.landed.href).toBe(true);
        const returnUrl = bobs.landed.searchParams.get('returnUrl')!;
        const back = await siteSignIn(browser, bob.username, { returnUrl });
        const callback = new URL((await browser.follow(back)).url);
        const claims = await subjectOf(callback.searchParams.get('code')!, bobs.verifier);
        expect(claims.sub).toBe(bob.id);
      });

      it('S27 a browser whose site session cookie is gone gets no code from the old OIDC session', async () => {
        const alice = await gw.addUser();
        const browser = new TestBrowser(issuer);
        await signInToPortal(browser, alice.username);
        // The browser lost the site cookie (closed, cleared): a cookie the server does not know.
        browser.setCookie('idp.session', 'x'.repeat(43));
        expect(await isSignedIn(browser)).toBe(false);

        const silent = await openPortal(browser, { prompt: 'none' });
        expect(silent.code).toBeNull();
        expect(silent.error).toBe('login_required');
        const plain = await openPortal(browser);
        expect(plain.code).toBeNull();
        expect(plain.signInPage).toBe(true);
      });

      it('S24 signing in as someone else on the site ends the previous user’s OIDC session in that browser', async () => {
        const alice = await gw.addUser();
        const bob = await gw.addUser();
        const browser = new TestBrowser(issuer);
        const aliceClaims = await signInToPortal(browser, alice.username);

        // Bob signs in on the site itself in the same browser (no application involved).
        await siteSignIn(browser, bob.username);
        const before = listener.received.length;

        const next = await openPortal(browser);
        expect(next.code, next.landed.href).toBeTruthy();
        const claims = await subjectOf(next.code!, next.verifier);
        expect(claims.sub).toBe(bob.id);

        // Alice's OIDC session ended: the portal was told by back-channel logout, for Alice's session.
        expect(listener.received.length).toBe(before + 1);
        const logout = decodeJwt(listener.received.at(-1)!.get('logout_token')!).payload;
        expect(logout).toMatchObject({ sub: alice.id, sid: aliceClaims.sid });
      });

      it('S24 a new sign-in of the same user on the site (a new auth_time) does not reuse the old OIDC session', async () => {
        const alice = await gw.addUser();
        const browser = new TestBrowser(issuer);
        const first = await signInToPortal(browser, alice.username);
        gw.clock.advance(2 * MINUTE);
        await siteSignIn(browser, alice.username);

        const next = await openPortal(browser);
        expect(next.code, next.landed.href).toBeTruthy();
        const claims = await subjectOf(next.code!, next.verifier);
        expect(claims.sub).toBe(alice.id);
        expect(claims.sid).not.toBe(first.sid);
      });

      it('S28 the OIDC cookie is a browser-session cookie without remember-me, and never outlives the site session with it', async () => {
        const oidcCookies = async (rememberMe: boolean) => {
          const user = await gw.addUser();
          const browser = new TestBrowser(issuer);
          const first = await openPortal(browser);
          const back = await siteSignIn(browser, user.username, {
            returnUrl: first.landed.searchParams.get('returnUrl')!,
            rememberMe,
          });
          // Walk the redirects by hand to read every Set-Cookie on the way back to the application.
          const lines: string[] = [];
          let current = new URL(back, issuer);
          for (let hops = 0; hops < 10 && current.origin === issuer; hops += 1) {
            const response = await browser.request(current.href);
            lines.push(...response.headers.getSetCookie());
            const location = response.headers.get('location');
            if (!location) break;
            current = new URL(location, current);
          }
          expect(current.searchParams.get('code'), current.href).toBeTruthy();
          return lines.filter((line) => line.startsWith('idp.oidc.session='));
        };

        const plain = await oidcCookies(false);
        expect(plain.length).toBeGreaterThan(0);
        for (const line of plain) {
          expect(line).not.toMatch(/;\s*(expires|max-age)=/i);
        }

        const remembered = await oidcCookies(true);
        expect(remembered.length).toBeGreaterThan(0);
        for (const line of remembered) {
          const expires = /;\s*expires=([^;]+)/i.exec(line)?.[1];
          expect(expires, line).toBeTruthy();
          // Never beyond the site session's absolute limit (30 days for remember-me), nor the OIDC session's own 12 h.
          expect(Date.parse(expires!)).toBeLessThanOrEqual(Date.now() + 12 * 60 * MINUTE + 5_000);
        }
      });
    },
  );
}
