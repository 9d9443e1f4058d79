import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { rotateSigningKeys } from './signing-keys.js';
import {
  decodeJwt,
  pkcePair,
  startBackchannelListener,
  startOidcHarness,
  verifyJwt,
  type BackchannelListener,
  type OidcHarness,
  type OidcVariant,
  type TestBrowser,
} from '../testing/oidc-harness.js';
import type { OidcDatabase } from './types.js';
import type { Kysely } from 'kysely';

const CLIENT_ID = 'payroll-portal';
const REDIRECT_URI = 'http://localhost:4000/callback';
const POST_LOGOUT_URI = 'http://localhost:4000/';

const variants: Array<{ variant: OidcVariant; skip: string | undefined }> = [
  { variant: 'sqlite', skip: undefined },
  { variant: 'postgres', skip: process.env.TEST_DATABASE_URL ? undefined : 'TEST_DATABASE_URL is not set' },
  { variant: 'redis', skip: process.env.TEST_REDIS_URL ? undefined : 'TEST_REDIS_URL is not set' },
];

for (const { variant, skip } of variants) {
  describe.skipIf(skip !== undefined)(
    `OIDC provider on ${variant}${skip ? ` (skipped: ${skip})` : ''}`,
    () => {
      let h: OidcHarness;
      let backchannel: BackchannelListener;

      beforeAll(async () => {
        backchannel = await startBackchannelListener();
        h = await startOidcHarness({ variant });
        h.accounts.set('u-employee', {
          sub: 'u-employee',
          name: 'Erin Employee',
          email: 'employee@demo.test',
          email_verified: true,
          roles: ['EMPLOYEE', 'MANAGER'],
        });
        await h.addClient({
          clientId: CLIENT_ID,
          name: 'Payroll portal',
          redirectUris: [REDIRECT_URI],
          postLogoutRedirectUris: [POST_LOGOUT_URI],
          backchannelLogoutUri: backchannel.url,
        });
      });

      afterAll(async () => {
        await h?.close();
        await backchannel?.close();
      });

      afterEach(() => {
        vi.useRealTimers();
      });

      function authorizeUrl(params: Record<string, string | undefined>): string {
        const url = new URL('/connect/authorize', h.issuer);
        const defaults: Record<string, string> = {
          client_id: CLIENT_ID,
          redirect_uri: REDIRECT_URI,
          response_type: 'code',
          scope: 'openid profile email roles',
          state: 'st-123',
          nonce: 'n-456',
        };
        for (const [key, value] of Object.entries({ ...defaults, ...params })) {
          if (value !== undefined) url.searchParams.set(key, value);
        }
        return url.href;
      }

      /** Runs the browser part of an authorization; returns the callback URL the browser lands on. */
      async function authorize(
        browser: TestBrowser,
        params: Record<string, string | undefined> = {},
        accountId = 'u-employee',
      ): Promise<URL> {
        const first = await browser.follow(authorizeUrl(params), ['/account/login']);
        const landed = new URL(first.url);
        if (landed.pathname === '/account/login') {
          // The sign-in site takes over; after a successful sign-in its 209 goes back to the interaction.
          const returnUrl = landed.searchParams.get('returnUrl')!;
          expect(returnUrl).toMatch(/^\/interaction\/[\w-]+$/);
          h.signIn(browser, accountId);
          return new URL((await browser.follow(returnUrl)).url);
        }
        return landed;
      }

      async function codeFlow(
        browser: TestBrowser,
        params: Record<string, string | undefined> = {},
      ): Promise<{ code: string; verifier: string }> {
        const { verifier, challenge } = pkcePair();
        const callback = await authorize(browser, {
          code_challenge: challenge,
          code_challenge_method: 'S256',
          ...params,
        });
        expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
        expect(callback.searchParams.get('state')).toBe(params.state ?? 'st-123');
        const code = callback.searchParams.get('code');
        expect(code, callback.href).toBeTruthy();
        return { code: code!, verifier };
      }

      async function redeem(code: string, verifier: string | undefined, redirectUri = REDIRECT_URI) {
        const body = new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          client_id: CLIENT_ID,
        });
        if (verifier !== undefined) body.set('code_verifier', verifier);
        const response = await fetch(`${h.issuer}/connect/token`, { method: 'POST', body });
        return { status: response.status, body: (await response.json()) as Record<string, string> };
      }

      async function refresh(refreshToken: string) {
        const body = new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          client_id: CLIENT_ID,
        });
        const response = await fetch(`${h.issuer}/connect/token`, { method: 'POST', body });
        return { status: response.status, body: (await response.json()) as Record<string, string> };
      }

      it('publishes discovery with /connect endpoints, code flow only, S256 only, RS256/ES256 keys', async () => {
        const response = await fetch(`${h.issuer}/.well-known/openid-configuration`);
        expect(response.status).toBe(200);
        const doc = (await response.json()) as Record<string, unknown>;
        expect(doc.issuer).toBe(h.issuer);
        expect(doc.authorization_endpoint).toBe(`${h.issuer}/connect/authorize`);
        expect(doc.token_endpoint).toBe(`${h.issuer}/connect/token`);
        expect(doc.userinfo_endpoint).toBe(`${h.issuer}/connect/userinfo`);
        expect(doc.end_session_endpoint).toBe(`${h.issuer}/connect/endsession`);
        expect(doc.jwks_uri).toBe(`${h.issuer}/connect/jwks`);
        expect(doc.response_types_supported).toEqual(['code']);
        expect(doc.code_challenge_methods_supported).toEqual(['S256']);
        expect(doc.backchannel_logout_supported).toBe(true);
        expect(doc.scopes_supported).toEqual(
          expect.arrayContaining(['openid', 'profile', 'email', 'roles', 'offline_access']),
        );
        expect(doc.claims_supported).toEqual(
          expect.arrayContaining(['sub', 'name', 'email', 'roles', 'customer']),
        );
        const jwks = (await (await fetch(`${h.issuer}/connect/jwks`)).json()) as {
          keys: Array<Record<string, string>>;
        };
        expect(jwks.keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
        for (const key of jwks.keys) expect(key.d).toBeUndefined();
      });

      it('completes code + PKCE: sign-in redirect, ID token with name and roles, userinfo', async () => {
        const browser = h.browser();
        const { code, verifier } = await codeFlow(browser);
        const tokens = await redeem(code, verifier);
        expect(tokens.status).toBe(200);
        const claims = await verifyJwt(tokens.body.id_token!, `${h.issuer}/connect/jwks`);
        expect(claims).toMatchObject({
          iss: h.issuer,
          aud: CLIENT_ID,
          sub: 'u-employee',
          nonce: 'n-456',
          name: 'Erin Employee',
          email: 'employee@demo.test',
          roles: ['EMPLOYEE', 'MANAGER'],
        });
        expect(decodeJwt(tokens.body.id_token!).header.alg).toBe('RS256');
        const userinfo = await fetch(`${h.issuer}/connect/userinfo`, {
          headers: { authorization: `Bearer ${tokens.body.access_token}` },
        });
        expect(userinfo.status).toBe(200);
        expect(await userinfo.json()).toMatchObject({ sub: 'u-employee', name: 'Erin Employee' });

        // Single sign-on: a second authorization in the same browser needs no sign-in page.
        const again = await browser.follow(
          authorizeUrl({ code_challenge: pkcePair().challenge, code_challenge_method: 'S256' }),
          ['/account/login'],
        );
        expect(new URL(again.url).searchParams.get('code')).toBeTruthy();
      });

      it('S36 refuses an authorization request without PKCE', async () => {
        const browser = h.browser();
        const result = await browser.follow(authorizeUrl({}), ['/account/login']);
        const landed = new URL(result.url);
        expect(landed.pathname).not.toBe('/account/login');
        expect(landed.searchParams.get('code')).toBeNull();
        expect(landed.searchParams.get('error')).toBe('invalid_request');
      });

      it('S36 refuses the plain PKCE method', async () => {
        const browser = h.browser();
        const { verifier } = pkcePair();
        const result = await browser.follow(
          authorizeUrl({ code_challenge: verifier, code_challenge_method: 'plain' }),
          ['/account/login'],
        );
        const landed = new URL(result.url);
        expect(landed.searchParams.get('code')).toBeNull();
        expect(landed.searchParams.get('error')).toBe('invalid_request');
      });

      it('S36 refuses a code redeemed without or with the wrong code_verifier', async () => {
        const { code } = await codeFlow(h.browser());
        expect((await redeem(code, undefined)).body.error).toBe('invalid_grant');
        const second = await codeFlow(h.browser());
        expect((await redeem(second.code, pkcePair().verifier)).body.error).toBe('invalid_grant');
      });

      it('S36 redeems a code exactly once under 50 parallel requests', async () => {
        const { code, verifier } = await codeFlow(h.browser());
        const results = await Promise.all(Array.from({ length: 50 }, () => redeem(code, verifier)));
        const successes = results.filter((r) => r.status === 200);
        expect(successes).toHaveLength(1);
        for (const failure of results.filter((r) => r.status !== 200)) {
          expect(failure.status).toBe(400);
          expect(failure.body.error).toBe('invalid_grant');
        }
      });

      it('S36 refuses a code older than 60 seconds', async () => {
        vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
        const { code, verifier } = await codeFlow(h.browser());
        vi.setSystemTime(Date.now() + 61_000);
        const late = await redeem(code, verifier);
        expect(late.status).toBe(400);
        expect(late.body.error).toBe('invalid_grant');
      });

      it('S36 rotates refresh tokens and revokes the grant when an old one is reused', async () => {
        const { code, verifier } = await codeFlow(h.browser(), {
          scope: 'openid profile offline_access',
          prompt: 'consent',
        });
        const tokens = await redeem(code, verifier);
        expect(tokens.status).toBe(200);
        const first = tokens.body.refresh_token!;
        expect(first).toBeTruthy();

        const rotated = await refresh(first);
        expect(rotated.status).toBe(200);
        const second = rotated.body.refresh_token!;
        expect(second).toBeTruthy();
        expect(second).not.toBe(first);

        const replay = await refresh(first);
        expect(replay.status).toBe(400);
        expect(replay.body.error).toBe('invalid_grant');
        // Reuse detected: the whole grant is gone, so the legitimate newest token fails too.
        const afterReplay = await refresh(second);
        expect(afterReplay.status).toBe(400);
        expect(afterReplay.body.error).toBe('invalid_grant');
      });

      it('S36 lets only one of 20 parallel refreshes of one token succeed', async () => {
        const { code, verifier } = await codeFlow(h.browser(), {
          scope: 'openid offline_access',
          prompt: 'consent',
        });
        const { body } = await redeem(code, verifier);
        const results = await Promise.all(Array.from({ length: 20 }, () => refresh(body.refresh_token!)));
        expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      });

      it.each([
        ['a trailing slash', `${REDIRECT_URI}/`],
        ['an extra query', `${REDIRECT_URI}?next=/evil`],
        ['another port', 'http://localhost:4001/callback'],
        ['another host', 'http://evil.test/callback'],
        ['a longer path', `${REDIRECT_URI}/../evil`],
        ['upper case', 'http://LOCALHOST:4000/Callback'],
        ['a fragment', `${REDIRECT_URI}#x`],
      ])('S32 refuses a redirect_uri with %s and never redirects to it', async (_label, redirectUri) => {
        const browser = h.browser();
        const { challenge } = pkcePair();
        const response = await browser.request(
          authorizeUrl({
            redirect_uri: redirectUri,
            code_challenge: challenge,
            code_challenge_method: 'S256',
          }),
        );
        expect(response.status).toBe(400);
        expect(response.headers.get('location')).toBeNull();
      });

      it('S32 refuses a code redeemed with a different redirect_uri', async () => {
        const { code, verifier } = await codeFlow(h.browser());
        const result = await redeem(code, verifier, `${REDIRECT_URI}/`);
        expect(result.status).toBe(400);
        expect(result.body.error).toBe('invalid_grant');
      });

      it('S32 refuses an unregistered post_logout_redirect_uri', async () => {
        const browser = h.browser();
        await codeFlow(browser);
        const url = new URL('/connect/endsession', h.issuer);
        url.searchParams.set('client_id', CLIENT_ID);
        url.searchParams.set('post_logout_redirect_uri', 'http://localhost:4000/?x=1');
        const response = await browser.request(url.href);
        expect(response.status).toBe(400);
        expect(response.headers.get('location')).toBeNull();
      });

      it('S32 logout without id_token_hint goes to the confirmation page; with a valid hint no prompt is needed', async () => {
        const browser = h.browser();
        const { code, verifier } = await codeFlow(browser);
        const tokens = await redeem(code, verifier);

        const bare = new URL('/connect/endsession', h.issuer);
        bare.searchParams.set('client_id', CLIENT_ID);
        bare.searchParams.set('post_logout_redirect_uri', POST_LOGOUT_URI);
        const response = await browser.request(bare.href);
        expect(response.status).toBe(303);
        const confirm = new URL(response.headers.get('location')!, h.issuer);
        expect(confirm.pathname).toBe('/account/logout');
        const logoutId = confirm.searchParams.get('logoutId')!;
        expect(logoutId.length).toBeGreaterThanOrEqual(32);
        const view = (await (
          await browser.request(`/test/logout-view?logoutId=${logoutId}`)
        ).json()) as Record<string, unknown>;
        expect(view).toMatchObject({
          showLogoutPrompt: true,
          clientId: CLIENT_ID,
          clientName: 'Payroll portal',
        });
        // Nothing is ended by merely visiting the end-session endpoint: SSO still works.
        const still = await browser.follow(
          authorizeUrl({ code_challenge: pkcePair().challenge, code_challenge_method: 'S256' }),
          ['/account/login'],
        );
        expect(new URL(still.url).searchParams.get('code')).toBeTruthy();

        const hinted = new URL('/connect/endsession', h.issuer);
        hinted.searchParams.set('id_token_hint', tokens.body.id_token!);
        hinted.searchParams.set('post_logout_redirect_uri', POST_LOGOUT_URI);
        hinted.searchParams.set('state', 'bye');
        const hintedResponse = await browser.request(hinted.href);
        const hintedId = new URL(hintedResponse.headers.get('location')!, h.issuer).searchParams.get(
          'logoutId',
        )!;
        const hintedView = (await (
          await browser.request(`/test/logout-view?logoutId=${hintedId}`)
        ).json()) as Record<string, unknown>;
        expect(hintedView).toMatchObject({ showLogoutPrompt: false, postLogoutRedirectUri: POST_LOGOUT_URI });
        // A made-up logoutId describes nothing.
        expect(await (await browser.request('/test/logout-view?logoutId=forged')).json()).toBeNull();
      });

      it('S27 ending the OIDC session sends back-channel logout, revokes tokens and ends single sign-on', async () => {
        const browser = h.browser();
        const { code, verifier } = await codeFlow(browser);
        const tokens = await redeem(code, verifier);
        const idToken = decodeJwt(tokens.body.id_token!).payload;

        const start = new URL('/connect/endsession', h.issuer);
        start.searchParams.set('id_token_hint', tokens.body.id_token!);
        start.searchParams.set('post_logout_redirect_uri', POST_LOGOUT_URI);
        start.searchParams.set('state', 'bye');
        const logoutId = new URL(
          (await browser.request(start.href)).headers.get('location')!,
          h.issuer,
        ).searchParams.get('logoutId')!;

        const before = backchannel.received.length;
        const ended = (await (
          await browser.request(`/test/logout?logoutId=${logoutId}`, { method: 'POST' })
        ).json()) as {
          ended: boolean;
          postLogoutRedirectUri: string;
          backchannelClients: string[];
        };
        expect(ended.ended).toBe(true);
        expect(ended.postLogoutRedirectUri).toBe(`${POST_LOGOUT_URI}?state=bye`);
        expect(ended.backchannelClients).toEqual([CLIENT_ID]);

        expect(backchannel.received.length).toBe(before + 1);
        const logoutToken = backchannel.received.at(-1)!.get('logout_token')!;
        const claims = await verifyJwt(logoutToken, `${h.issuer}/connect/jwks`);
        expect(claims).toMatchObject({ iss: h.issuer, aud: CLIENT_ID, sub: 'u-employee', sid: idToken.sid });
        expect(claims.events).toEqual({ 'http://schemas.openid.net/event/backchannel-logout': {} });
        expect(claims.nonce).toBeUndefined();

        const userinfo = await fetch(`${h.issuer}/connect/userinfo`, {
          headers: { authorization: `Bearer ${tokens.body.access_token}` },
        });
        expect(userinfo.status).toBe(401);

        // The OIDC session is gone, and with the site session (Logout ends both): prompt=none now answers
        // login_required to the client. (A live site session would answer a code: ADR 0020.)
        h.signOutSite(browser);
        const silent = await browser.follow(
          authorizeUrl({
            prompt: 'none',
            code_challenge: pkcePair().challenge,
            code_challenge_method: 'S256',
          }),
          ['/account/login'],
        );
        expect(new URL(silent.url).searchParams.get('error')).toBe('login_required');
      });

      it('S41 tokens signed before a key rotation still verify after it; new tokens use the new key', async () => {
        const db = h.store.database.db as unknown as Kysely<OidcDatabase>;
        const before = await codeFlow(h.browser());
        const oldTokens = await redeem(before.code, before.verifier);
        const oldKid = decodeJwt(oldTokens.body.id_token!).header.kid;

        await rotateSigningKeys(db);
        await h.service.reload();

        await expect(verifyJwt(oldTokens.body.id_token!, `${h.issuer}/connect/jwks`)).resolves.toMatchObject({
          sub: 'u-employee',
        });
        const after = await codeFlow(h.browser());
        const newTokens = await redeem(after.code, after.verifier);
        const newKid = decodeJwt(newTokens.body.id_token!).header.kid;
        expect(newKid).not.toBe(oldKid);
        await expect(verifyJwt(newTokens.body.id_token!, `${h.issuer}/connect/jwks`)).resolves.toMatchObject({
          sub: 'u-employee',
        });
        // The provider still accepts its own earlier ID token as id_token_hint after the rotation.
        const end = new URL('/connect/endsession', h.issuer);
        end.searchParams.set('id_token_hint', oldTokens.body.id_token!);
        const response = await h.browser().request(end.href);
        expect(response.status).not.toBe(400);
      });
    },
  );
}

describe('signing keys across replicas', () => {
  let h: OidcHarness;
  beforeAll(async () => {
    h = await startOidcHarness({ variant: 'sqlite', keyPollIntervalMs: 100 });
  });
  afterAll(async () => {
    await h?.close();
  });

  const publishedKids = async () =>
    ((await (await fetch(`${h.issuer}/connect/jwks`)).json()) as { keys: { kid: string }[] }).keys.map(
      (k) => k.kid,
    );

  it('S41 a running provider publishes keys rotated elsewhere (admin CLI, another replica) without a reload', async () => {
    const db = h.store.database.db as unknown as Kysely<OidcDatabase>;
    const before = await publishedKids();
    // A delayed rotation, as `admin keys rotate` does: published at once, signing later.
    const rotated = await rotateSigningKeys(db, { activateAfterMs: 60_000 });
    const fresh = rotated.map((k) => k.kid!).filter((kid) => !before.includes(kid));
    expect(fresh).toHaveLength(2);
    await vi.waitFor(
      async () => {
        expect(await publishedKids()).toEqual(expect.arrayContaining([...before, ...fresh]));
      },
      { timeout: 3000, interval: 100 },
    );
  });
});
