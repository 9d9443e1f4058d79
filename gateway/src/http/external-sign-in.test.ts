/**
 * External identity providers (ADR 0018) against a second, real OpenID Connect provider (`startUpstreamIdp`, its own
 * users and sign-in form) on another port: vendor sign-in through the upstream into an application's code flow (the
 * vendor's roles in the ID token), login providers on the sign-in page, S35 (state, nonce and PKCE tampering
 * refused; identities keyed by (issuer, subject); an equal e-mail signs nobody in), linking (S24, S6, the second
 * factor), EexLink (S21) and unlinking, and the upstream sign-out (S27).
 */
import { Secret, TOTP } from 'otpauth';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, pkcePair, TestBrowser } from '../testing/oidc-harness.js';
import { BACKENDS, startTestGateway, TEST_PASSWORD, type TestGateway } from '../testing/test-gateway.js';
import { startUpstreamIdp, type UpstreamIdp } from '../testing/upstream-idp.js';

const CLIENT_ID = 'portal-ext';
const REDIRECT_URI = 'http://localhost:4000/callback';
const UPSTREAM_SECRET = 'upstream-secret-for-the-gateway';

function json(browser: TestBrowser, url: string, body: unknown, token?: string): Promise<Response> {
  return browser.request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-csrf-token-value': token } : {}) },
    body: JSON.stringify(body),
  });
}

/** A visitor: one browser per origin (the gateway's and the upstream's), as a real browser's cookie jar has. */
class Visitor {
  readonly gw: TestBrowser;
  readonly up: TestBrowser;
  token = '';
  constructor(gatewayUrl: string, upstreamUrl: string) {
    this.gw = new TestBrowser(gatewayUrl);
    this.up = new TestBrowser(upstreamUrl);
  }
  async antiforgery(): Promise<string> {
    this.token = (
      (await (await this.gw.request('/api/Account/Antiforgery')).json()) as { token: string }
    ).token;
    return this.token;
  }
  /** POST with the anti-forgery header; a 209 is exchanged for a fresh token as the client does. */
  async post(url: string, body: unknown = {}): Promise<Response> {
    // The client reads the token from its cookie (a full-page callback may have set a fresh one).
    const cookies = (this.gw as unknown as { cookies: Map<string, { value: string }> }).cookies;
    const cookie = [...cookies.entries()].find(([key]) => key.split(';')[0]!.endsWith('x-csrf-token-value'));
    if (cookie) this.token = cookie[1].value;
    if (!this.token) await this.antiforgery();
    const response = await json(this.gw, url, body, this.token);
    if (response.status === 209) {
      const { state } = (await response.clone().json()) as { state: string };
      const exchanged = await json(this.gw, '/api/Account/Exchange', { state }, this.token);
      this.token = ((await exchanged.json()) as { token: string }).token;
    }
    return response;
  }
  async user(): Promise<{ isAuthenticated: boolean; userName?: string; roles?: string[] }> {
    return (await (await this.gw.request('/api/Account/User')).json()) as never;
  }
  sessionCookie(): string | undefined {
    return (this.gw as unknown as { cookies: Map<string, { value: string }> }).cookies.get('idp.session;/')
      ?.value;
  }
}

/** Signs in at the upstream's own form and answers the gateway callback address it sends the browser to. */
async function signInAtUpstream(visitor: Visitor, authorizeUrl: string, username: string, password: string) {
  const form = await visitor.up.follow(authorizeUrl);
  const uid = /\/interaction\/([\w-]+)/.exec(form.url)?.[1];
  expect(uid, `upstream did not show its form: ${form.url}`).toBeDefined();
  const posted = await visitor.up.request(`/interaction/${uid}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }).toString(),
  });
  expect(posted.status).toBeGreaterThanOrEqual(300);
  const back = await visitor.up.follow(new URL(posted.headers.get('location')!, form.url).href);
  return back.url;
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `external identity providers, a real upstream OpenID Connect provider (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      let upstream: UpstreamIdp;
      let issuer: string;
      /** The gateway's warn lines (JSON), for the upstream's refusal (issue 53). */
      const warnings: string[] = [];

      beforeAll(async () => {
        gw = await startTestGateway({
          backend: backend.name,
          oidc: true,
          throttleLimits: { perAccountSource: 3, freeFailures: 1 },
          overrides: { logger: pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) }) },
        });
        issuer = gw.url!;
        upstream = await startUpstreamIdp({
          title: 'Contoso ID',
          clients: [
            {
              clientId: 'hr-identity',
              clientSecret: UPSTREAM_SECRET,
              redirectUris: ['contoso', 'social'].map((id) => `${issuer}/signin/${id}/callback`),
              postLogoutRedirectUris: [`${issuer}/account/loggedout`],
            },
          ],
          users: [
            {
              username: 'vera',
              password: 'vera-pw',
              sub: 'sub-vera',
              name: 'Vera Vendor',
              email: 'vera@contoso.example',
            },
            {
              username: 'lee',
              password: 'lee-pw',
              sub: 'sub-lee',
              name: 'Lee Linker',
              email: 'lee@social.example',
            },
            {
              username: 'mimic',
              password: 'mimic-pw',
              sub: 'sub-mimic',
              name: 'Mimic',
              email: 'victim@example.test',
            },
            { username: 'mfa', password: 'mfa-pw', sub: 'sub-mfa', name: 'Mo Factor', amr: ['pwd', 'mfa'] },
          ],
        });
        await gw.store.clients.create({
          clientId: CLIENT_ID,
          name: 'Payroll portal',
          redirectUris: [REDIRECT_URI],
        });
        await gw.store.partners.create({
          id: 'acme',
          name: 'Acme',
          domains: ['127.0.0.1'],
          showLoginProviders: true,
          isDefault: true,
        });
        await gw.store.identityProviders.create({
          id: 'contoso',
          name: 'Contoso Support',
          issuer: upstream.issuer,
          clientId: 'hr-identity',
          clientSecret: UPSTREAM_SECRET,
          vendor: true,
          roles: ['VENDOR_SUPPORT', 'VENDOR_OPERATIONS'],
        });
        await gw.store.identityProviders.create({
          id: 'social',
          name: 'Social ID',
          issuer: upstream.issuer,
          clientId: 'hr-identity',
          clientSecret: UPSTREAM_SECRET,
          buttonLabel: 'Sign in with Social ID',
          partnerId: 'acme',
        });
      });

      afterAll(async () => {
        await gw?.close();
        await upstream?.close();
      });

      /** VendorLogin → the upstream's authorization URL (a 209 the client follows with a full page load). */
      async function startAt(visitor: Visitor, vendorId: string, returnUrl = '/account/'): Promise<string> {
        const started = await visitor.post('/api/Account/VendorLogin', { vendorId, returnUrl });
        expect(started.status).toBe(209);
        const { redirect } = (await started.json()) as { redirect: string };
        expect(redirect.startsWith(`${upstream.issuer}/auth?`)).toBe(true);
        return redirect;
      }

      /** The whole upstream round trip; answers where the gateway's callback sends the browser. */
      async function viaUpstream(
        visitor: Visitor,
        vendorId: string,
        username: string,
        password: string,
        options: {
          returnUrl?: string;
          tamperAuthorize?: (u: URL) => void;
          tamperCallback?: (u: URL) => void;
        } = {},
      ): Promise<string> {
        const authorize = new URL(await startAt(visitor, vendorId, options.returnUrl));
        options.tamperAuthorize?.(authorize);
        const callback = new URL(await signInAtUpstream(visitor, authorize.href, username, password));
        expect(callback.pathname).toBe(`/signin/${vendorId}/callback`);
        options.tamperCallback?.(callback);
        const landed = await visitor.gw.request(callback.href);
        expect(landed.status).toBe(302);
        return landed.headers.get('location')!;
      }

      it('VendorLoginView answers a vendor provider or a login provider of this site by name, and nothing else', async () => {
        const visitor = new Visitor(issuer, upstream.issuer);
        const view = await visitor.gw.request('/api/Account/VendorLoginView?vendorId=contoso');
        expect(await view.json()).toEqual({ vendorId: 'contoso', name: 'Contoso Support' });
        const social = await visitor.gw.request('/api/Account/VendorLoginView?vendorId=social');
        expect(await social.json()).toEqual({ vendorId: 'social', name: 'Social ID' });
        expect((await visitor.gw.request('/api/Account/VendorLoginView?vendorId=nobody')).status).toBe(404);
        const bad = await visitor.gw.request('/api/Account/VendorLoginView?vendorId=%3Cscript%3E');
        expect(bad.status).toBe(400);
      });

      it("LoginView lists the partner's non-vendor providers, only while the partner shows login providers", async () => {
        const visitor = new Visitor(issuer, upstream.issuer);
        const view = (await (await visitor.gw.request('/api/Account/LoginView?returnUrl=/')).json()) as {
          showLoginProviders: boolean;
          providers: unknown[];
        };
        expect(view.showLoginProviders).toBe(true);
        expect(view.providers).toEqual([
          { vendorId: 'social', displayName: 'Social ID', buttonLabel: 'Sign in with Social ID' },
        ]);
        await gw.store.partners.update('acme', { showLoginProviders: false });
        try {
          await new Promise((r) => setTimeout(r, 0));
          gw.clock.advance(6_000); // the partner cache (5 s)
          const off = (await (await visitor.gw.request('/api/Account/LoginView?returnUrl=/')).json()) as {
            providers: unknown[];
          };
          expect(off.providers).toEqual([]);
        } finally {
          await gw.store.partners.update('acme', { showLoginProviders: true });
          gw.clock.advance(6_000);
        }
      });

      it("vendor sign-in creates the vendor account with its roles; the application's ID token carries them; the audit names the upstream", async () => {
        const visitor = new Visitor(issuer, upstream.issuer);
        const pkce = pkcePair();
        const authorize = new URL('/connect/authorize', issuer);
        authorize.search = new URLSearchParams({
          client_id: CLIENT_ID,
          redirect_uri: REDIRECT_URI,
          response_type: 'code',
          scope: 'openid profile roles',
          state: 'st',
          nonce: 'n',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
        }).toString();
        const toLogin = await visitor.gw.follow(authorize.href, ['/account/login']);
        const returnUrl = new URL(toLogin.url).searchParams.get('returnUrl')!;
        expect(returnUrl).toMatch(/^\/interaction\//);

        const target = await viaUpstream(visitor, 'contoso', 'vera', 'vera-pw', { returnUrl });
        expect(target).toBe(returnUrl);
        const back = await visitor.gw.follow(target);
        const code = new URL(back.url).searchParams.get('code')!;
        const tokens = (await (
          await fetch(`${issuer}/connect/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              grant_type: 'authorization_code',
              code,
              redirect_uri: REDIRECT_URI,
              client_id: CLIENT_ID,
              code_verifier: pkce.verifier,
            }),
          })
        ).json()) as { id_token: string };
        const claims = decodeJwt(tokens.id_token).payload;
        expect(claims.roles).toEqual(['VENDOR_SUPPORT', 'VENDOR_OPERATIONS']);
        expect(claims.name).toBe('Vera Vendor');

        const link = await gw.store.externalLogins.find(upstream.issuer, 'sub-vera');
        expect(link?.providerId).toBe('contoso');
        const account = await gw.store.users.findById(link!.userId);
        expect(account).toMatchObject({
          roles: ['VENDOR_SUPPORT', 'VENDOR_OPERATIONS'],
          passwordHash: null,
          email: null,
        });
        const events = await gw.store.audit.list({ userId: account!.id });
        expect(events.map((e) => e.kind)).toEqual(
          expect.arrayContaining([
            'external.vendor-account-created',
            'sign-in.external',
            'sign-in.completed',
          ]),
        );
        expect(events.find((e) => e.kind === 'sign-in.external')?.data).toMatchObject({
          provider: 'contoso',
          issuer: upstream.issuer,
        });

        // The next sign-in of the same (issuer, subject) is the same account; the roles follow the configuration.
        await gw.store.identityProviders.update('contoso', { roles: ['VENDOR_PARTNER'] });
        const again = new Visitor(issuer, upstream.issuer);
        expect(await viaUpstream(again, 'contoso', 'vera', 'vera-pw')).toBe('/account/');
        expect(await again.user()).toMatchObject({
          isAuthenticated: true,
          userName: account!.username,
          roles: ['VENDOR_PARTNER'],
        });
        await gw.store.identityProviders.update('contoso', {
          roles: ['VENDOR_SUPPORT', 'VENDOR_OPERATIONS'],
        });
      });

      it('S35 a tampered state is refused: nothing is signed in, and the audit says why', async () => {
        const visitor = new Visitor(issuer, upstream.issuer);
        const target = await viaUpstream(visitor, 'contoso', 'vera', 'vera-pw', {
          tamperCallback: (u) => u.searchParams.set('state', 'forged-state'),
        });
        expect(target).toMatch(/^\/error\/signin\?errorId=[0-9A-Z]{16}&provider=contoso&/);
        expect((await visitor.user()).isAuthenticated).toBe(false);
        const [last] = await gw.store.audit.list({ kinds: ['sign-in.external.failed'] });
        expect(last?.data).toMatchObject({ reason: 'rejected' });
      });

      it("an upstream refusing the gateway's client (invalid_client): one warn line and the audit keep its error, description and status; the person's page names the provider, with the reference", async () => {
        await gw.store.identityProviders.update('contoso', { clientSecret: 'not-the-registered-secret' });
        try {
          const visitor = new Visitor(issuer, upstream.issuer);
          const target = new URL(
            await viaUpstream(visitor, 'contoso', 'vera', 'vera-pw', { returnUrl: '/account/' }),
            issuer,
          );
          expect(target.pathname).toBe('/error/signin');
          expect(target.searchParams.get('provider')).toBe('contoso');
          expect(target.searchParams.get('returnUrl')).toBe('/account/');
          const errorId = target.searchParams.get('errorId')!;
          expect((await visitor.user()).isAuthenticated).toBe(false);
          // What the page shows: "Signing in with Contoso Support failed", the reference.
          const record = await (await visitor.gw.request(`/api/Account/Error?errorId=${errorId}`)).json();
          expect(record).toMatchObject({
            errorId,
            messageKey: 'upstreamFailed',
            clientName: 'Contoso Support',
          });
          const [audited] = await gw.store.audit.list({ kinds: ['sign-in.external.failed'] });
          expect(audited?.data).toMatchObject({
            reason: 'rejected',
            provider: 'contoso',
            issuer: upstream.issuer,
            error: 'invalid_client',
            errorDescription: expect.stringMatching(/client authentication failed/) as unknown,
            status: 401,
            errorId,
          });
          const lines = warnings
            .map((line) => JSON.parse(line) as Record<string, unknown>)
            .filter((line) => line.errorId === errorId);
          expect(lines).toHaveLength(1);
          expect(lines[0]).toMatchObject({
            level: 40,
            msg: 'upstream sign-in refused by the provider',
            provider: 'contoso',
            error: 'invalid_client',
            status: 401,
          });
          expect(JSON.stringify(lines[0])).not.toContain('not-the-registered-secret');
        } finally {
          await gw.store.identityProviders.update('contoso', { clientSecret: UPSTREAM_SECRET });
        }
      });

      it("each provider's public key is served at /signin/<id>/jwks for private_key_jwt; an unknown one is 404", async () => {
        const visitor = new Visitor(issuer, upstream.issuer);
        const answer = await visitor.gw.request('/signin/contoso/jwks');
        expect(answer.status).toBe(200);
        expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
        const { keys } = (await answer.json()) as { keys: Record<string, string>[] };
        const { publicJwk } = (await gw.store.identityProviders.signingKey('contoso'))!;
        expect(keys).toEqual([publicJwk]);
        expect(keys[0]).not.toHaveProperty('d');
        expect(Object.keys(keys[0]!).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
        // The same key on the next ask (kept in the store, not made again).
        expect(await (await visitor.gw.request('/signin/contoso/jwks')).json()).toEqual({ keys });
        expect((await visitor.gw.request('/signin/nobody/jwks')).status).toBe(404);
        expect((await visitor.gw.request('/signin/%3Cx%3E/jwks')).status).toBe(404);
      });

      it('S35 a nonce other than the one sent is refused', async () => {
        const visitor = new Visitor(issuer, upstream.issuer);
        const target = await viaUpstream(visitor, 'contoso', 'vera', 'vera-pw', {
          tamperAuthorize: (u) => u.searchParams.set('nonce', 'attacker-nonce'),
        });
        expect(target).toMatch(/^\/error\/signin\?errorId=/);
        expect((await visitor.user()).isAuthenticated).toBe(false);
      });

      it('S35 a PKCE challenge other than the one sent is refused (the code does not redeem)', async () => {
        const visitor = new Visitor(issuer, upstream.issuer);
        const target = await viaUpstream(visitor, 'contoso', 'vera', 'vera-pw', {
          tamperAuthorize: (u) => u.searchParams.set('code_challenge', pkcePair().challenge),
        });
        expect(target).toMatch(/^\/error\/signin\?errorId=/);
        expect((await visitor.user()).isAuthenticated).toBe(false);
      });

      it('declining at the upstream (access_denied for this request) returns to the sign-in page; a forged one does not', async () => {
        const visitor = new Visitor(issuer, upstream.issuer);
        const authorize = new URL(await startAt(visitor, 'contoso', '/account/'));
        const state = authorize.searchParams.get('state')!;
        const declined = await visitor.gw.request(
          `/signin/contoso/callback?error=access_denied&state=${state}`,
        );
        expect(declined.headers.get('location')).toBe('/account/login?returnUrl=%2Faccount%2F');
        expect((await visitor.user()).isAuthenticated).toBe(false);
        // Used up: the same answer again is refused.
        const again = await visitor.gw.request(`/signin/contoso/callback?error=access_denied&state=${state}`);
        expect(again.headers.get('location')).toBe('/error/signin');
        const other = new Visitor(issuer, upstream.issuer);
        await startAt(other, 'contoso');
        const forged = await other.gw.request('/signin/contoso/callback?error=access_denied&state=guess');
        expect(forged.headers.get('location')).toMatch(/^\/error\/signin\?errorId=/);
      });

      it('S35 a callback is answered once, and only for the browser that started it', async () => {
        const visitor = new Visitor(issuer, upstream.issuer);
        const authorize = await startAt(visitor, 'contoso');
        const callback = await signInAtUpstream(visitor, authorize, 'vera', 'vera-pw');
        // Another browser (an attacker's link) presents the code: no authorization request of its own.
        const other = new Visitor(issuer, upstream.issuer);
        expect((await other.gw.request(callback)).headers.get('location')).toBe('/error/signin');
        expect((await other.user()).isAuthenticated).toBe(false);
        expect((await visitor.gw.request(callback)).headers.get('location')).toBe('/account/');
        // Replayed by the same browser: the request was used up.
        expect((await visitor.gw.request(callback)).headers.get('location')).toBe('/error/signin');
      });

      it("S35 an upstream e-mail equal to a local user's does not sign in as that user: the link page asks", async () => {
        const victim = await gw.addUser({ username: 'victim', email: 'victim@example.test' });
        const visitor = new Visitor(issuer, upstream.issuer);
        const target = await viaUpstream(visitor, 'social', 'mimic', 'mimic-pw', { returnUrl: '/account/' });
        expect(target).toBe('/account/link?returnUrl=%2Faccount%2F');
        expect((await visitor.user()).isAuthenticated).toBe(false);
        expect(await gw.store.externalLogins.find(upstream.issuer, 'sub-mimic')).toBeUndefined();
        expect(await gw.store.externalLogins.listForUser(victim.id)).toEqual([]);
      });

      it('a vendor provider is not a login provider, and a login provider of another partner is refused', async () => {
        await gw.store.partners.create({ id: 'other', name: 'Other' });
        await gw.store.identityProviders.create({
          id: 'elsewhere',
          name: 'Elsewhere',
          issuer: upstream.issuer,
          clientId: 'hr-identity',
          clientSecret: UPSTREAM_SECRET,
          partnerId: 'other',
        });
        const visitor = new Visitor(issuer, upstream.issuer);
        expect((await visitor.post('/api/Account/VendorLogin', { vendorId: 'elsewhere' })).status).toBe(404);
        expect((await visitor.gw.request('/api/Account/VendorLoginView?vendorId=elsewhere')).status).toBe(
          404,
        );
        expect((await visitor.post('/api/Account/VendorLogin', { vendorId: 'nobody' })).status).toBe(404);
        const bad = await visitor.post('/api/Account/VendorLogin', { vendorId: 42 });
        expect(bad.status).toBe(400);
      });

      it('link: ExternalUser shows who it is; a wrong password links nothing; the right one links with a new session id (S24)', async () => {
        const local = await gw.addUser({ username: 'lee.local', email: 'lee@example.test' });
        const visitor = new Visitor(issuer, upstream.issuer);
        expect(await viaUpstream(visitor, 'social', 'lee', 'lee-pw')).toBe(
          '/account/link?returnUrl=%2Faccount%2F',
        );
        const who = await visitor.gw.request('/api/Account/ExternalUser');
        expect(await who.json()).toEqual({
          name: 'Lee Linker',
          email: 'lee@social.example',
          provider: 'Social ID',
        });

        const wrong = await visitor.post('/api/Account/Link', { username: 'lee.local', password: 'nope' });
        expect(wrong.status).toBe(400);
        expect(await gw.store.externalLogins.find(upstream.issuer, 'sub-lee')).toBeUndefined();

        const before = visitor.sessionCookie();
        const linked = await visitor.post('/api/Account/Link', {
          username: 'lee.local',
          password: TEST_PASSWORD,
        });
        expect(linked.status).toBe(209);
        expect(((await linked.json()) as { redirect: string }).redirect).toBe('/account/');
        const after = visitor.sessionCookie();
        expect(after).toBeDefined();
        expect(after).not.toBe(before);
        // The old cookie is dead (S24).
        const old = await fetch(`${issuer}/api/Account/ProfileImage`, {
          headers: { cookie: `idp.session=${before}` },
        });
        expect(old.status).toBe(401);
        expect(await visitor.user()).toMatchObject({ isAuthenticated: true, userName: 'lee.local' });
        expect((await gw.store.externalLogins.find(upstream.issuer, 'sub-lee'))?.userId).toBe(local.id);
        expect((await gw.store.audit.list({ userId: local.id, kinds: ['external.linked'] })).length).toBe(1);
        // Announced at once (issue 48, ADR 0042): the account is mailed the new way in, with the security centre.
        const [notice] = await gw.store.outbox.list({ to: 'lee@example.test' });
        expect(notice?.subject).toContain('A new way to sign in was added');
        expect(notice?.text).toContain(': sign-in with Social ID.');
        expect(notice?.text).toContain(`${issuer}/account/`);

        // Next time: no password at all.
        const later = new Visitor(issuer, upstream.issuer);
        expect(await viaUpstream(later, 'social', 'lee', 'lee-pw')).toBe('/account/');
        expect(await later.user()).toMatchObject({ isAuthenticated: true, userName: 'lee.local' });
      });

      it('S6 Link is throttled like the password sign-in', async () => {
        await gw.addUser({ username: 'throttled.local' });
        const visitor = new Visitor(issuer, upstream.issuer);
        await viaUpstream(visitor, 'social', 'mimic', 'mimic-pw');
        const codes: string[] = [];
        for (let i = 0; i < 5; i += 1) {
          const r = await visitor.post('/api/Account/Link', {
            username: 'throttled.local',
            password: `wrong-${i}`,
          });
          codes.push(...((await r.json()) as { errors: Record<string, string[]> }).errors['']!);
        }
        expect(codes).toContain('tooManyAttempts');
        // Even the right password is refused while throttled, and nothing is linked.
        const right = await visitor.post('/api/Account/Link', {
          username: 'throttled.local',
          password: TEST_PASSWORD,
        });
        expect(right.status).toBe(400);
        expect(await gw.store.externalLogins.find(upstream.issuer, 'sub-mimic')).toBeUndefined();
      });

      it('Next with back forgets the upstream identity and returns to the sign-in page', async () => {
        const visitor = new Visitor(issuer, upstream.issuer);
        await viaUpstream(visitor, 'social', 'mimic', 'mimic-pw', { returnUrl: '/account/' });
        const next = await visitor.post('/api/Account/Next?button=back');
        expect(next.status).toBe(209);
        expect(((await next.json()) as { redirect: string }).redirect).toBe(
          '/account/login?returnUrl=%2Faccount%2F',
        );
        expect((await visitor.gw.request('/api/Account/ExternalUser')).status).toBe(404);
        expect((await visitor.post('/api/Account/Next?button=sideways')).status).toBe(400);
        // Link without an identity to link: the flow starts again.
        const link = await visitor.post('/api/Account/Link', { username: 'x', password: 'y' });
        expect(link.status).toBe(400);
      });

      it("a linked account's second factor still applies, unless the provider trusts the upstream's MFA", async () => {
        const local = await gw.addUser({ username: 'mo.local' });
        await gw.store.externalLogins.link({
          issuer: upstream.issuer,
          subject: 'sub-mfa',
          userId: local.id,
          providerId: 'social',
          securityStamp: local.securityStamp,
        });
        await gw.store.secondFactors.enablePin(local.id);
        const visitor = new Visitor(issuer, upstream.issuer);
        const target = await viaUpstream(visitor, 'social', 'mfa', 'mfa-pw');
        expect(target).toBe('/account/login/twofactor?returnUrl=%2Faccount%2F');
        expect((await visitor.user()).isAuthenticated).toBe(false);

        await gw.store.identityProviders.update('social', { trustUpstreamMfa: true });
        try {
          const trusted = new Visitor(issuer, upstream.issuer);
          const landed = await viaUpstream(trusted, 'social', 'mfa', 'mfa-pw');
          const [event] = await gw.store.audit.list({ userId: local.id, kinds: ['sign-in.external'] });
          expect(event?.data).toMatchObject({ upstreamAmr: ['pwd', 'mfa'] });
          expect(landed).toBe('/account/');
          expect((await trusted.user()).isAuthenticated).toBe(true);
        } finally {
          await gw.store.identityProviders.update('social', { trustUpstreamMfa: false });
        }
      });

      /** A local account with an authenticator on; answers it and a function giving its current code. */
      async function victimWithAuthenticator(username: string) {
        const victim = await gw.addUser({ username });
        const secret = new Secret({ size: 20 }).base32;
        await gw.store.secondFactors.enableAuthenticator(victim.id, gw.store.secrets.encrypt(secret), 0);
        const code = () =>
          new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
            timestamp: gw.clock.now(),
          });
        return { victim, code };
      }

      it("S35 S21 Link with the password alone links nothing: a sign-in left at the second factor stores no link, so a trusted upstream MFA never stands in for the victim's factor (issue 39)", async () => {
        const { victim } = await victimWithAuthenticator('victim.bypass');
        upstream.addUser({
          username: 'intruder',
          password: 'intruder-pw',
          sub: 'sub-intruder',
          name: 'Intruder',
          amr: ['pwd', 'mfa'],
        });
        await gw.store.identityProviders.update('social', { trustUpstreamMfa: true });
        try {
          // The intruder knows only the victim's password, and signs in at the upstream as themself (with MFA there).
          const intruder = new Visitor(issuer, upstream.issuer);
          expect(await viaUpstream(intruder, 'social', 'intruder', 'intruder-pw')).toBe(
            '/account/link?returnUrl=%2Faccount%2F',
          );
          const linked = await intruder.post('/api/Account/Link', {
            username: 'victim.bypass',
            password: TEST_PASSWORD,
          });
          expect(linked.status).toBe(209);
          expect(((await linked.json()) as { redirect: string }).redirect).toBe(
            '/account/login/twofactor?returnUrl=%2Faccount%2F',
          );
          // Stopped at the victim's second factor: nothing is linked, and the trail says nothing was.
          expect(await gw.store.externalLogins.find(upstream.issuer, 'sub-intruder')).toBeUndefined();
          expect(await gw.store.audit.list({ userId: victim.id, kinds: ['external.linked'] })).toEqual([]);

          // The intruder abandons the 2FA page and signs in through the upstream again: the link page asks again,
          // nobody is signed in, and the victim's recovery codes cannot be regenerated.
          const again = new Visitor(issuer, upstream.issuer);
          expect(await viaUpstream(again, 'social', 'intruder', 'intruder-pw')).toBe(
            '/account/link?returnUrl=%2Faccount%2F',
          );
          expect((await again.user()).isAuthenticated).toBe(false);
          const regenerate = await again.post('/api/Account/RedeemRecoveryCode');
          expect(regenerate.status).not.toBe(200);
        } finally {
          await gw.store.identityProviders.update('social', { trustUpstreamMfa: false });
        }
      });

      it('S24 S35 Link links once every step has passed, the second factor included, and the id changes again; a password change, a reset or sessions revoke end that link (issue 39)', async () => {
        const { victim: owner, code } = await victimWithAuthenticator('owner.links');
        upstream.addUser({ username: 'owner', password: 'owner-pw', sub: 'sub-owner', name: 'Owner' });
        const visitor = new Visitor(issuer, upstream.issuer);
        await viaUpstream(visitor, 'social', 'owner', 'owner-pw');
        const atFactor = await visitor.post('/api/Account/Link', {
          username: 'owner.links',
          password: TEST_PASSWORD,
        });
        expect(atFactor.status).toBe(209);
        const pendingCookie = visitor.sessionCookie();
        expect(await gw.store.externalLogins.find(upstream.issuer, 'sub-owner')).toBeUndefined();
        const done = await visitor.post('/api/Account/LoginWith2FA', {
          method: 'authenticator',
          code: code(),
        });
        expect(done.status).toBe(209);
        expect(((await done.json()) as { redirect: string }).redirect).toBe('/account/');
        expect(visitor.sessionCookie()).not.toBe(pendingCookie);
        expect((await visitor.user()).isAuthenticated).toBe(true);
        const link = await gw.store.externalLogins.find(upstream.issuer, 'sub-owner');
        expect(link?.userId).toBe(owner.id);
        expect(await gw.store.audit.list({ userId: owner.id, kinds: ['external.linked'] })).toHaveLength(1);

        // Linked: the upstream alone reaches the owner's second factor (the link stands) ...
        const next = new Visitor(issuer, upstream.issuer);
        expect(await viaUpstream(next, 'social', 'owner', 'owner-pw')).toBe(
          '/account/login/twofactor?returnUrl=%2Faccount%2F',
        );

        // ... until the credentials change: each of these ends it, and the link page asks for the password again.
        const enders: [string, () => Promise<unknown>][] = [
          ['a new password', () => gw.store.users.update(owner.id, { passwordHash: owner.passwordHash })],
          ['sessions revoke', () => gw.store.users.rotateSecurityStamp(owner.id)],
        ];
        for (const [what, end] of enders) {
          // Link again, completely, then end it.
          const relink = new Visitor(issuer, upstream.issuer);
          const target = await viaUpstream(relink, 'social', 'owner', 'owner-pw');
          if (target.startsWith('/account/link')) {
            await relink.post('/api/Account/Link', { username: 'owner.links', password: TEST_PASSWORD });
            gw.clock.advance(30_000); // the next TOTP step (a code is accepted once per step, S17)
            const finished = await relink.post('/api/Account/LoginWith2FA', {
              method: 'authenticator',
              code: code(),
            });
            expect(finished.status, what).toBe(209);
          }
          expect((await gw.store.externalLogins.find(upstream.issuer, 'sub-owner'))?.userId, what).toBe(
            owner.id,
          );
          await end();
          const after = new Visitor(issuer, upstream.issuer);
          expect(await viaUpstream(after, 'social', 'owner', 'owner-pw'), what).toBe(
            '/account/link?returnUrl=%2Faccount%2F',
          );
          expect(await gw.store.externalLogins.find(upstream.issuer, 'sub-owner'), what).toBeUndefined();
        }
        expect(
          (await gw.store.audit.list({ userId: owner.id, kinds: ['external.link.lapsed'] })).length,
        ).toBe(2);
      });

      it('EexLink needs a recent full sign-in (S21); it links another upstream, with a new session id (S24); EexUnlink removes it', async () => {
        const local = await gw.addUser({ username: 'eex.local' });
        const visitor = new Visitor(issuer, upstream.issuer);
        const signedIn = await visitor.post('/api/Account/Login', {
          username: 'eex.local',
          password: TEST_PASSWORD,
        });
        expect(signedIn.status).toBe(209);
        expect(await (await visitor.gw.request('/api/Account/ExternalLogins')).json()).toEqual([
          { vendorId: 'social', displayName: 'Social ID', linked: false },
        ]);

        gw.clock.advance(15 * 60_000);
        const stale = await visitor.post('/api/Account/EexLink', { vendorId: 'social' });
        expect(stale.status).toBe(403);
        expect(await stale.json()).toMatchObject({ errors: { '': ['recentSignInRequired'] } });

        const fresh = new Visitor(issuer, upstream.issuer);
        await fresh.post('/api/Account/Login', { username: 'eex.local', password: TEST_PASSWORD });
        upstream.addUser({ username: 'eex', password: 'eex-pw', sub: 'sub-eex', name: 'Eex' });
        const started = await fresh.post('/api/Account/EexLink', { vendorId: 'social' });
        expect(started.status).toBe(209);
        const { redirect } = (await started.json()) as { redirect: string };
        const callback = await signInAtUpstream(fresh, redirect, 'eex', 'eex-pw');
        const before = fresh.sessionCookie();
        const landed = await fresh.gw.request(callback);
        expect(landed.headers.get('location')).toBe('/account/');
        expect(fresh.sessionCookie()).not.toBe(before);
        expect((await gw.store.externalLogins.find(upstream.issuer, 'sub-eex'))?.userId).toBe(local.id);
        // S21 announced at once (issue 48, ADR 0042): the link is mailed to the account.
        const [notice] = await gw.store.outbox.list({ to: local.email! });
        expect(notice?.subject).toContain('A new way to sign in was added');
        expect(notice?.text).toContain(': sign-in with Social ID.');
        expect(await (await fresh.gw.request('/api/Account/ExternalLogins')).json()).toEqual([
          { vendorId: 'social', displayName: 'Social ID', linked: true },
        ]);

        const unlink = await fresh.post('/api/Account/EexUnlink', { vendorId: 'social' });
        expect(unlink.status).toBe(200);
        expect(await gw.store.externalLogins.find(upstream.issuer, 'sub-eex')).toBeUndefined();
        expect((await fresh.post('/api/Account/EexUnlink', { vendorId: 'social' })).status).toBe(404);
        const anonymous = new Visitor(issuer, upstream.issuer);
        // Nobody signed in: the flow starts again at the sign-in page (the protocol's empty 400).
        const refused = await anonymous.post('/api/Account/EexLink', { vendorId: 'social' });
        expect(refused.status).toBe(400);
        expect(await refused.json()).toEqual({});
      });

      it("S27 signing out of an upstream sign-in asks; yes reaches the upstream's end-session and comes back to /account/loggedout", async () => {
        const visitor = new Visitor(issuer, upstream.issuer);
        await viaUpstream(visitor, 'contoso', 'vera', 'vera-pw');
        expect((await visitor.user()).isAuthenticated).toBe(true);
        const logout = await visitor.post('/api/Account/Logout', {});
        expect(((await logout.json()) as { redirect: string }).redirect).toBe('/account/logout/upstream');
        expect((await visitor.user()).isAuthenticated).toBe(false);
        const view = (await (await visitor.gw.request('/api/Account/LogoutView')).json()) as {
          upstream?: string;
        };
        expect(view.upstream).toBe('Contoso Support');

        const seen = upstream.endSessions.length;
        const yes = await visitor.post('/api/Account/UpstreamLogout?button=yes');
        expect(yes.status).toBe(209);
        const endSession = new URL(((await yes.json()) as { redirect: string }).redirect);
        expect(endSession.origin + endSession.pathname).toBe(`${upstream.issuer}/session/end`);
        expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${issuer}/account/loggedout`);
        // Always a state and the client id (issue 53): providers return to post_logout_redirect_uri only with one.
        const state = endSession.searchParams.get('state');
        expect(state).toMatch(/^[\w-]{32,}$/);
        expect(endSession.searchParams.get('client_id')).toBe('hr-identity');
        const hint = decodeJwt(endSession.searchParams.get('id_token_hint')!).payload;
        expect(hint).toMatchObject({ iss: upstream.issuer, sub: 'sub-vera' });
        const vera = await gw.store.externalLogins.find(upstream.issuer, 'sub-vera');
        const [audited] = await gw.store.audit.list({ kinds: ['sign-out.upstream'] });
        expect(audited).toMatchObject({
          userId: vera!.userId,
          data: { provider: 'contoso', issuer: upstream.issuer },
        });

        // The upstream's confirmation form, submitted: it ends its session and sends the browser back.
        const page = await (await visitor.up.request(endSession.href)).text();
        expect(upstream.endSessions.length).toBe(seen + 1);
        const xsrf = /name="xsrf" value="([^"]+)"/.exec(page)![1]!;
        const action = /action="([^"]+)"/.exec(page)![1]!;
        const confirmed = await visitor.up.request(action, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
        });
        expect(new URL(confirmed.headers.get('location')!).href).toBe(
          `${issuer}/account/loggedout?state=${state}`,
        );
        // Answered once.
        expect(
          (
            (await (await visitor.post('/api/Account/UpstreamLogout?button=yes')).json()) as {
              redirect: string;
            }
          ).redirect,
        ).toBe('/account/loggedout');
        // The upstream session is over: its sign-in form shows again.
        const again = await visitor.up.follow(await startAt(visitor, 'contoso'));
        expect(again.url).toMatch(/\/interaction\//);
      });

      it('S27 "no" leaves the upstream session alone and goes to the logged-out page', async () => {
        const visitor = new Visitor(issuer, upstream.issuer);
        await viaUpstream(visitor, 'contoso', 'vera', 'vera-pw');
        await visitor.post('/api/Account/Logout', {});
        const seen = upstream.endSessions.length;
        const no = await visitor.post('/api/Account/UpstreamLogout?button=no');
        expect(((await no.json()) as { redirect: string }).redirect).toBe('/account/loggedout');
        expect(upstream.endSessions.length).toBe(seen);
        expect((await visitor.post('/api/Account/UpstreamLogout?button=maybe')).status).toBe(400);
      });

      it('yes to an upstream without an end-session endpoint signs out here only, and the page is told so (issue 53)', async () => {
        const plain = await startUpstreamIdp({
          title: 'Plain ID',
          noEndSession: true,
          clients: [
            {
              clientId: 'hr-identity',
              clientSecret: UPSTREAM_SECRET,
              redirectUris: [`${issuer}/signin/plain/callback`],
            },
          ],
          users: [
            {
              username: 'pia',
              password: 'pia-pw',
              sub: 'sub-pia',
              name: 'Pia Plain',
              email: 'pia@plain.example',
            },
          ],
        });
        try {
          expect(
            (await (await fetch(`${plain.issuer}/.well-known/openid-configuration`)).json()) as object,
          ).not.toHaveProperty('end_session_endpoint');
          await gw.store.identityProviders.create({
            id: 'plain',
            name: 'Plain ID',
            issuer: plain.issuer,
            clientId: 'hr-identity',
            clientSecret: UPSTREAM_SECRET,
            vendor: true,
            roles: ['VENDOR_SUPPORT'],
          });
          const visitor = new Visitor(issuer, plain.issuer);
          const started = await visitor.post('/api/Account/VendorLogin', {
            vendorId: 'plain',
            returnUrl: '/account/',
          });
          const { redirect } = (await started.json()) as { redirect: string };
          expect(redirect.startsWith(`${plain.issuer}/auth?`)).toBe(true);
          const callback = await signInAtUpstream(visitor, redirect, 'pia', 'pia-pw');
          expect((await visitor.gw.request(callback)).status).toBe(302);
          expect((await visitor.user()).isAuthenticated).toBe(true);
          const logout = await visitor.post('/api/Account/Logout', {});
          expect(((await logout.json()) as { redirect: string }).redirect).toBe('/account/logout/upstream');
          const yes = await visitor.post('/api/Account/UpstreamLogout?button=yes');
          expect(((await yes.json()) as { redirect: string }).redirect).toBe(
            '/account/loggedout?upstream=kept',
          );
          expect((await visitor.user()).isAuthenticated).toBe(false);
        } finally {
          await gw.store.identityProviders.remove('plain');
          await plain.close();
        }
      });

      it('a password sign-in signs out without the upstream question', async () => {
        await gw.addUser({ username: 'plain.local' });
        const visitor = new Visitor(issuer, upstream.issuer);
        await visitor.post('/api/Account/Login', { username: 'plain.local', password: TEST_PASSWORD });
        const logout = await visitor.post('/api/Account/Logout', {});
        expect(((await logout.json()) as { redirect: string }).redirect).toBe('/account/loggedout');
      });

      it('an upstream that does not answer: the gateway still serves, VendorLogin answers 503', async () => {
        await gw.store.identityProviders.create({
          id: 'dead',
          name: 'Dead',
          issuer: 'http://127.0.0.1:9', // discard port: nothing listens
          clientId: 'x',
          clientSecret: 'y',
          vendor: true,
          roles: ['VENDOR_SUPPORT'],
        });
        const visitor = new Visitor(issuer, upstream.issuer);
        expect((await visitor.post('/api/Account/VendorLogin', { vendorId: 'dead' })).status).toBe(503);
        expect((await visitor.gw.request('/api/Account/LoginView?returnUrl=/')).status).toBe(200);
      });
    },
  );
}

describe('Link behind the captcha (the guarded link form, SPEC.md §9)', () => {
  let gw: TestGateway;
  let upstream: UpstreamIdp;

  beforeAll(async () => {
    // Every guarded call needs a solved challenge on this gateway.
    gw = await startTestGateway({ oidc: true, overrides: { captchaFallback: { when: 'always' } } });
    upstream = await startUpstreamIdp({
      clients: [
        {
          clientId: 'hr-identity',
          clientSecret: UPSTREAM_SECRET,
          redirectUris: [`${gw.url!}/signin/social/callback`],
        },
      ],
      users: [{ username: 'lee', password: 'lee-pw', sub: 'sub-lee', name: 'Lee Linker' }],
    });
    await gw.store.identityProviders.create({
      id: 'social',
      name: 'Social ID',
      issuer: upstream.issuer,
      clientId: 'hr-identity',
      clientSecret: UPSTREAM_SECRET,
    });
  });

  afterAll(async () => {
    await gw?.close();
    await upstream?.close();
  });

  it('Link is refused with captchaRequired until a challenge is solved, and nothing is linked', async () => {
    const local = await gw.addUser({ username: 'guarded.local' });
    const visitor = new Visitor(gw.url!, upstream.issuer);
    const started = await visitor.post('/api/Account/VendorLogin', { vendorId: 'social' });
    const { redirect } = (await started.json()) as { redirect: string };
    const callback = await signInAtUpstream(visitor, redirect, 'lee', 'lee-pw');
    expect((await visitor.gw.request(callback)).headers.get('location')).toBe('/account/link?returnUrl=%2F');
    const link = await visitor.post('/api/Account/Link', {
      username: 'guarded.local',
      password: TEST_PASSWORD,
    });
    expect(link.status).toBe(400);
    expect(await link.json()).toMatchObject({ errors: { '': ['captchaRequired'] } });
    expect(await gw.store.externalLogins.listForUser(local.id)).toEqual([]);
  });
});

describe('an upstream that releases name and e-mail only from userinfo', () => {
  it('the link page still shows them (userinfo is asked for the same subject)', async () => {
    const gw = await startTestGateway({ oidc: true });
    const upstream = await startUpstreamIdp({
      userinfoOnly: true,
      clients: [
        {
          clientId: 'hr-identity',
          clientSecret: UPSTREAM_SECRET,
          redirectUris: [`${gw.url!}/signin/quiet/callback`],
        },
      ],
      users: [
        { username: 'ann', password: 'ann-pw', sub: 'sub-ann', name: 'Ann Info', email: 'ann@quiet.example' },
      ],
    });
    try {
      await gw.store.identityProviders.create({
        id: 'quiet',
        name: 'Quiet ID',
        issuer: upstream.issuer,
        clientId: 'hr-identity',
        clientSecret: UPSTREAM_SECRET,
      });
      const visitor = new Visitor(gw.url!, upstream.issuer);
      const started = await visitor.post('/api/Account/VendorLogin', { vendorId: 'quiet' });
      const { redirect } = (await started.json()) as { redirect: string };
      const callback = await signInAtUpstream(visitor, redirect, 'ann', 'ann-pw');
      expect((await visitor.gw.request(callback)).headers.get('location')).toBe(
        '/account/link?returnUrl=%2F',
      );
      expect(await (await visitor.gw.request('/api/Account/ExternalUser')).json()).toEqual({
        name: 'Ann Info',
        email: 'ann@quiet.example',
        provider: 'Quiet ID',
      });
    } finally {
      await gw.close();
      await upstream.close();
    }
  });
});
