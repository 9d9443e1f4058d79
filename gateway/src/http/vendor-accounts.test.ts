/**
 * Vendor accounts have vendor credentials only (issue 48, ADR 0041), against a second, real OpenID Connect provider
 * (`startUpstreamIdp`) the vendor staff sign in through: the security centre, "forgotten password", the one-time
 * sign-in, passkey registration and the 2FA set-up refuse a vendor account a credential of its own (S35, S10), and
 * `admin idps remove` offboards the provider's accounts at once (S29): sessions, OIDC sessions, refresh tokens, and
 * any password or passkey such an account was given no longer signs in.
 */
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../cli/admin.js';
import {
  issueUnboundSignInLink,
  oneTimeTokenMailsSettled,
} from '../identity/one-time-token/one-time-sign-in.service.js';
import { hashPassword } from '../identity/passwords/passwords.service.js';
import { recoveryMailsSettled } from '../identity/recovery/recovery.service.js';
import { randomToken, sha256 } from '../infra/crypto/tokens.js';
import { pkcePair, TestBrowser } from '../testing/oidc-harness.js';
import type { User } from '../store/user.repository.js';
import { SoftwareAuthenticator } from '../testing/software-authenticator.js';
import { BACKENDS, startTestGateway, TEST_PASSWORD, type TestGateway } from '../testing/test-gateway.js';
import { startUpstreamIdp, type UpstreamIdp } from '../testing/upstream-idp.js';

const CLIENT_ID = 'portal-vendor';
const REDIRECT_URI = 'http://localhost:4000/callback';
const UPSTREAM_SECRET = 'upstream-secret-for-the-gateway';
const VENDOR_REFUSAL = { '': ['vendorCredentialsOnly'] };

/** A visitor: one browser per origin (the gateway's and the upstream's), as a real browser's cookie jar has. */
class Visitor {
  readonly gw: TestBrowser;
  readonly up: TestBrowser;
  token = '';
  constructor(gatewayUrl: string, upstreamUrl: string) {
    this.gw = new TestBrowser(gatewayUrl);
    this.up = new TestBrowser(upstreamUrl);
  }
  private cookies(): Map<string, { value: string }> {
    return (this.gw as unknown as { cookies: Map<string, { value: string }> }).cookies;
  }
  private send(url: string, body: unknown): Promise<Response> {
    return this.gw.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token-value': this.token },
      body: JSON.stringify(body),
    });
  }
  /** POST with the anti-forgery header; a 209 is exchanged for a fresh token as the client does. */
  async post(url: string, body: unknown = {}): Promise<Response> {
    const cookie = [...this.cookies().entries()].find(([key]) =>
      key.split(';')[0]!.endsWith('x-csrf-token-value'),
    );
    if (cookie) this.token = cookie[1].value;
    if (!this.token)
      this.token = (
        (await (await this.gw.request('/api/Account/Antiforgery')).json()) as { token: string }
      ).token;
    const response = await this.send(url, body);
    if (response.status === 209) {
      const { state } = (await response.clone().json()) as { state: string };
      const exchanged = await this.send('/api/Account/Exchange', { state });
      this.token = ((await exchanged.json()) as { token: string }).token;
    }
    return response;
  }
  sessionCookie(): string {
    const value = this.cookies().get('idp.session;/')?.value;
    expect(value).toBeDefined();
    return `idp.session=${value}`;
  }
}

async function bodyOf(response: Response): Promise<{ status: number; body: unknown }> {
  return { status: response.status, body: await response.json() };
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `vendor accounts have vendor credentials only (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      let upstream: UpstreamIdp;
      let issuer: string;

      beforeAll(async () => {
        gw = await startTestGateway({ backend: backend.name, oidc: true });
        issuer = gw.url!;
        upstream = await startUpstreamIdp({
          title: 'Contoso ID',
          clients: [
            {
              clientId: 'hr-identity',
              clientSecret: UPSTREAM_SECRET,
              redirectUris: ['contoso', 'fabrikam', 'social'].map((id) => `${issuer}/signin/${id}/callback`),
              postLogoutRedirectUris: [`${issuer}/account/loggedout`],
            },
          ],
          users: ['vera', 'vic', 'val', 'olga'].map((name) => ({
            username: name,
            password: `${name}-pw`,
            sub: `sub-${name}`,
            name: `${name} Vendor`,
            email: `${name}@contoso.example`,
          })),
        });
        await gw.store.clients.create({
          clientId: CLIENT_ID,
          name: 'Payroll portal',
          redirectUris: [REDIRECT_URI],
        });
        await gw.store.partners.create({
          id: 'acme',
          name: 'Acme',
          domains: ['127.0.0.1', 'localhost'],
          showLoginProviders: true,
          isDefault: true,
        });
        for (const [id, name] of [
          ['contoso', 'Contoso Support'],
          ['fabrikam', 'Fabrikam Operations'],
        ] as const)
          await gw.store.identityProviders.create({
            id,
            name,
            issuer: upstream.issuer,
            clientId: 'hr-identity',
            clientSecret: UPSTREAM_SECRET,
            vendor: true,
            roles: ['VENDOR_SUPPORT'],
          });
        await gw.store.identityProviders.create({
          id: 'social',
          name: 'Social ID',
          issuer: upstream.issuer,
          clientId: 'hr-identity',
          clientSecret: UPSTREAM_SECRET,
          partnerId: 'acme',
        });
      });

      afterAll(async () => {
        await gw?.close();
        await upstream?.close();
      });

      /** VendorLogin, the upstream's own form, the gateway's callback: where the callback sends the browser. */
      async function viaUpstream(
        visitor: Visitor,
        vendorId: string,
        username: string,
        returnUrl = '/account/',
      ) {
        const started = await visitor.post('/api/Account/VendorLogin', { vendorId, returnUrl });
        expect(started.status).toBe(209);
        const { redirect } = (await started.json()) as { redirect: string };
        const form = await visitor.up.follow(redirect);
        const uid = /\/interaction\/([\w-]+)/.exec(form.url)?.[1];
        expect(uid, `upstream did not show its form: ${form.url}`).toBeDefined();
        const posted = await visitor.up.request(`/interaction/${uid}/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ username, password: `${username}-pw` }).toString(),
        });
        const back = await visitor.up.follow(new URL(posted.headers.get('location')!, form.url).href);
        const callback = new URL(back.url);
        expect(callback.pathname).toBe(`/signin/${vendorId}/callback`);
        const landed = await visitor.gw.request(callback.href);
        expect(landed.status).toBe(302);
        return landed.headers.get('location')!;
      }

      /** A vendor signed in at the security centre; their account. */
      async function signedInVendor(username: string, vendorId = 'contoso') {
        const visitor = new Visitor(issuer, upstream.issuer);
        expect(await viaUpstream(visitor, vendorId, username)).toBe('/account/');
        const link = await gw.store.externalLogins.find(upstream.issuer, `sub-${username}`);
        const account = (await gw.store.users.findById(link!.userId))!;
        return { visitor, account };
      }

      /** A passkey stored for the account as the old code's registration left one; the authenticator holds it. */
      async function givePasskey(account: User) {
        const device = new SoftwareAuthenticator(gw.config.publicUrl);
        const { payload, credential } = device.register({
          challenge: randomToken(32),
          rp: { id: new URL(gw.config.publicUrl).hostname },
          user: { id: Buffer.from(account.id, 'utf8').toString('base64url') },
        });
        const attestation = isoCBOR.decodeFirst<Map<string, Uint8Array>>(
          new Uint8Array(Buffer.from(payload.response.attestationObject, 'base64url')),
        );
        // authenticatorData: rpIdHash 32, flags 1, counter 4, AAGUID 16, id length 2, id 16, then the COSE key.
        const cose = Buffer.from(attestation.get('authData')!).subarray(32 + 1 + 4 + 16 + 2 + 16);
        await gw.store.passkeys.add({
          id: payload.id,
          userId: account.id,
          publicKey: cose.toString('base64url'),
          counter: 0,
          transports: ['internal'],
          name: 'Laptop',
        });
        return { device, credential };
      }

      it('S35 SecurityCentreView tells the client the account is a vendor account, and through which provider', async () => {
        const { visitor, account } = await signedInVendor('vera');
        expect(account.vendorId).toBe('contoso');
        const view = (await (await visitor.gw.request('/api/Account/SecurityCentreView')).json()) as {
          vendorAccount?: unknown;
        };
        expect(view.vendorAccount).toEqual({ provider: 'Contoso Support' });
      });

      it('S35 the security centre refuses a vendor account an e-mail, a password and recovery codes (400 vendorCredentialsOnly); nothing changes, nothing is mailed', async () => {
        const { visitor, account } = await signedInVendor('vera');
        const email = await visitor.post('/api/Account/RequestEmailChange', { email: 'vera@mine.example' });
        expect(await bodyOf(email)).toMatchObject({ status: 400, body: { errors: VENDOR_REFUSAL } });
        const password = await visitor.post('/api/Account/ChangePassword', {
          currentPassword: 'anything',
          newPassword: 'Harbour lights over Kiel 7',
          confirmPassword: 'Harbour lights over Kiel 7',
        });
        expect(await bodyOf(password)).toMatchObject({ status: 400, body: { errors: VENDOR_REFUSAL } });
        const codes = await visitor.post('/api/Account/RegenerateRecoveryCodes');
        expect(await bodyOf(codes)).toMatchObject({ status: 400, body: { errors: VENDOR_REFUSAL } });

        expect(await gw.store.outbox.list({ to: 'vera@mine.example' })).toEqual([]);
        expect(await gw.store.recoveryCodes.remaining(account.id)).toBe(0);
        expect(await gw.store.users.findById(account.id)).toMatchObject({ email: null, passwordHash: null });
      });

      it('S35 a vendor account registers no passkey, sets up no second factor and links no other provider (400 vendorCredentialsOnly)', async () => {
        const { visitor, account } = await signedInVendor('vera');
        const calls: [string, unknown][] = [
          ['/api/Account/CredentialOptions?displayName=Laptop', {}],
          ['/api/Account/RegisterCredential', {}],
          ['/api/Account/Setup2FAView', {}],
          ['/api/Account/GeneratePhoneVerification', { phone: '+447700900123' }],
          ['/api/Account/GeneratePin', {}],
          ['/api/Account/EexLink', { vendorId: 'social' }],
        ];
        for (const [url, body] of calls) {
          const answer = await bodyOf(await visitor.post(url, body));
          expect({ url, ...answer }).toMatchObject({ url, status: 400, body: { errors: VENDOR_REFUSAL } });
        }
        expect(await gw.store.passkeys.listForUser(account.id)).toEqual([]);
        expect(await gw.store.users.hasSecondFactor(account.id)).toBe(false);
        expect(await gw.store.externalLogins.listForUser(account.id)).toHaveLength(1);
      });

      it('S10 S35 "forgotten password" answers a vendor account as an unknown one: no mail, no link; a reset link it holds is refused like a made-up one', async () => {
        const { account } = await signedInVendor('vic');
        // As the old code let it: an e-mail address of its own.
        await gw.store.users.update(account.id, { email: 'vic@contoso.example' });
        const anonymous = new Visitor(issuer, upstream.issuer);
        const vendor = await bodyOf(
          await anonymous.post('/api/Account/Recover', { username: 'vic@contoso.example' }),
        );
        const unknown = await bodyOf(
          await anonymous.post('/api/Account/Recover', { username: 'nobody@contoso.example' }),
        );
        expect(vendor).toEqual(unknown);
        await recoveryMailsSettled();
        expect(await gw.store.outbox.list({ to: 'vic@contoso.example' })).toEqual([]);

        const token = randomToken(32);
        await gw.store.oneTimeTokens.issue({
          userId: account.id,
          purpose: 'password-reset',
          tokenHash: sha256(token),
          ttlMs: 60 * 60_000,
        });
        const reset = (t: string) =>
          anonymous.post('/api/Account/ResetPassword', {
            token: t,
            newPassword: 'Harbour lights over Kiel 7',
            confirmPassword: 'Harbour lights over Kiel 7',
          });
        // A dead link answers 209 to the link-expired page (its state is one use, so it differs each time).
        const redirectOf = async (response: Response) => ({
          status: response.status,
          redirect: ((await response.json()) as { redirect?: string }).redirect,
        });
        const held = await redirectOf(await reset(token));
        expect(held).toEqual(await redirectOf(await reset(randomToken(32))));
        expect(held).toEqual({ status: 209, redirect: '/error/link-expired' });
        expect((await gw.store.users.findById(account.id))?.passwordHash).toBeNull();
      });

      it('S10 S35 no one-time sign-in for a vendor account: SendOTP mails nothing, a sign-in link it holds is refused like a made-up one, admin ott issue refuses', async () => {
        const { account } = await signedInVendor('val');
        await gw.store.users.update(account.id, { email: 'val@contoso.example' });
        const anonymous = new Visitor(issuer, upstream.issuer);
        const vendor = await bodyOf(
          await anonymous.post('/api/Account/SendOTP', { username: 'val@contoso.example' }),
        );
        const unknown = await bodyOf(
          await anonymous.post('/api/Account/SendOTP', { username: 'nobody@contoso.example' }),
        );
        expect(vendor).toEqual(unknown);
        await oneTimeTokenMailsSettled();
        expect(await gw.store.outbox.list({ to: 'val@contoso.example' })).toEqual([]);

        const { link } = await issueUnboundSignInLink(gw.store, {
          user: (await gw.store.users.findById(account.id))!,
          minutes: 5,
          publicUrl: issuer,
          now: Date.now(),
        });
        const held = new URL(link).searchParams.get('token')!;
        const signIn = async (token: string) =>
          bodyOf(await new Visitor(issuer, upstream.issuer).post('/api/Account/LoginWithOTT', { token }));
        const answer = await signIn(held);
        expect(answer).toEqual(await signIn(randomToken(32)));
        expect(answer).toMatchObject({ status: 400, body: { errors: { '': ['oneTimeLinkInvalid'] } } });
        // Support cannot hand one out either.
        await expect(
          runAdminCommand(gw.store, ['ott', 'issue', '--username', account.username], () => undefined),
        ).rejects.toThrow(/is a vendor account: it signs in through its provider only/);
      });

      it('S29 S35 admin idps remove offboards its vendor accounts at once: the session gets 401, the refresh token is refused, a password or passkey they were given does not sign in', async () => {
        // Olga signs in to the application through Fabrikam, with a refresh token.
        const visitor = new Visitor(issuer, upstream.issuer);
        const pkce = pkcePair();
        const authorize = new URL('/connect/authorize', issuer);
        authorize.search = new URLSearchParams({
          client_id: CLIENT_ID,
          redirect_uri: REDIRECT_URI,
          response_type: 'code',
          scope: 'openid profile offline_access',
          prompt: 'consent',
          state: 'st',
          nonce: 'n',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
        }).toString();
        const toLogin = await visitor.gw.follow(authorize.href, ['/account/login']);
        const returnUrl = new URL(toLogin.url).searchParams.get('returnUrl')!;
        const target = await viaUpstream(visitor, 'fabrikam', 'olga', returnUrl);
        const back = await visitor.gw.follow(target);
        const code = new URL(back.url).searchParams.get('code')!;
        const tokens = (await (
          await fetch(`${issuer}/connect/token`, {
            method: 'POST',
            body: new URLSearchParams({
              grant_type: 'authorization_code',
              code,
              redirect_uri: REDIRECT_URI,
              client_id: CLIENT_ID,
              code_verifier: pkce.verifier,
            }),
          })
        ).json()) as { refresh_token?: string; access_token: string };
        expect(tokens.refresh_token).toBeTruthy();
        const cookie = visitor.sessionCookie();
        const profile = () => fetch(`${issuer}/api/Account/ProfileImage`, { headers: { cookie } });
        expect((await profile()).status).toBe(200);

        // What the old code let the account give itself: a password and a passkey.
        const link = await gw.store.externalLogins.find(upstream.issuer, 'sub-olga');
        const account = (await gw.store.users.findById(link!.userId))!;
        await gw.store.users.update(account.id, { passwordHash: await hashPassword(TEST_PASSWORD) });
        const { device, credential } = await givePasskey(account);
        // Giving it a password rotated the stamp (as a reset would): sign in again through Fabrikam.
        const again = new Visitor(issuer, upstream.issuer);
        expect(await viaUpstream(again, 'fabrikam', 'olga')).toBe('/account/');
        const againCookie = again.sessionCookie();
        expect(
          (await fetch(`${issuer}/api/Account/ProfileImage`, { headers: { cookie: againCookie } })).status,
        ).toBe(200);

        const lines: string[] = [];
        await runAdminCommand(gw.store, ['idps', 'remove', '--id', 'fabrikam'], (line) => lines.push(line), {
          redis: gw.redis,
        });
        expect(lines.join('\n')).toMatch(/fabrikam removed; 1 vendor account\(s\) signed out everywhere/);

        expect(
          (await fetch(`${issuer}/api/Account/ProfileImage`, { headers: { cookie: againCookie } })).status,
        ).toBe(401);
        const refreshed = await fetch(`${issuer}/connect/token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            refresh_token: tokens.refresh_token!,
            client_id: CLIENT_ID,
          }),
        });
        expect(refreshed.status).toBe(400);
        expect(((await refreshed.json()) as { error: string }).error).toBe('invalid_grant');

        const stranger = new Visitor(issuer, upstream.issuer);
        const password = await stranger.post('/api/Account/Login', {
          username: account.username,
          password: TEST_PASSWORD,
        });
        expect(await bodyOf(password)).toMatchObject({
          status: 400,
          body: { errors: { '': ['invalidCredentials'] } },
        });
        const options = (await (await stranger.post('/api/Account/AssertionOptions')).json()) as {
          challenge: string;
        };
        const passkey = await stranger.post(
          '/api/Account/SecureLogin?returnUrl=%2Faccount%2F',
          device.assert(options, credential),
        );
        expect(await bodyOf(passkey)).toMatchObject({
          status: 400,
          body: { errors: { '': ['secureSignInFailed'] } },
        });
        const events = await gw.store.audit.list({ userId: account.id });
        expect(events.find((e) => e.kind === 'vendor.offboarded')?.data).toMatchObject({
          provider: 'fabrikam',
        });
      });
    },
  );
}
