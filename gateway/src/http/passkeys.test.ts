import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RECENT_SIGN_IN_MS } from '../identity/two-factor/two-factor.service.js';
import { CHALLENGE_TTL_MS } from '../identity/passkeys/webauthn.service.js';
import { PASSKEY_OFFER_QUIET_MS } from '../identity/passkeys/passkey-offer.step.js';
import { sha256 } from '../infra/crypto/tokens.js';
import { DEFAULT_INTERACTION_LIMIT } from '../oidc/interaction-limit.js';
import type { User } from '../store/user.repository.js';
import { SoftwareAuthenticator, type SoftwareCredential } from '../testing/software-authenticator.js';
import {
  BACKENDS,
  browser,
  sessionCookieOf,
  startTestGateway,
  type TestGateway,
} from '../testing/test-gateway.js';

type Browser = Awaited<ReturnType<typeof browser>>;

const OFFER = (returnUrl: string) => `/account/registerdevice?returnUrl=${encodeURIComponent(returnUrl)}`;

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `passkeys and security keys (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      let device: SoftwareAuthenticator;
      beforeAll(async () => {
        gw = await startTestGateway({ backend: backend.name });
        // The relying party is PUBLIC_URL (http://localhost:8080), never the request's Host.
        device = new SoftwareAuthenticator(gw.config.publicUrl);
      });
      afterAll(async () => {
        await gw.close();
      });

      /** A password sign-in from a browser with a platform authenticator, at the passkey offer. */
      async function atOffer(user: User, returnUrl = '/account/') {
        const b = await browser(gw.app);
        const res = await b.signIn(user.username, undefined, { returnUrl, platformAuthenticator: true });
        expect(res.status).toBe(209);
        expect(res.body.redirect).toBe(OFFER(returnUrl));
        return b;
      }

      async function credentialOptions(b: Browser, name = 'Work laptop') {
        const res = await b.post(`/api/Account/CredentialOptions?displayName=${encodeURIComponent(name)}`);
        expect(res.status).toBe(200);
        return res.body as {
          challenge: string;
          rp: { id: string; name: string };
          user: { id: string; name: string };
          excludeCredentials: { id: string }[];
          authenticatorSelection: { residentKey: string; userVerification: string };
        };
      }

      /** A user with one registered passkey, through the offer; returns the credential. */
      async function userWithPasskey(extra: Partial<Parameters<TestGateway['addUser']>[0]> = {}) {
        const user = await gw.addUser(extra);
        const b = await atOffer(user);
        const options = await credentialOptions(b);
        const { payload, credential } = device.register(options);
        const res = await b.post('/api/Account/RegisterCredential', payload);
        expect(res.status).toBe(209);
        return { user, credential };
      }

      async function assertionOptions(b: Browser) {
        const res = await b.post('/api/Account/AssertionOptions');
        expect(res.status).toBe(200);
        return res.body as { challenge: string; rpId: string; userVerification: string };
      }

      async function secureLogin(b: Browser, payload: unknown, returnUrl = '/account/') {
        return b.post(`/api/Account/SecureLogin?returnUrl=${encodeURIComponent(returnUrl)}`, payload);
      }

      it('offers registration after a password sign-in on a browser with a platform authenticator, and registers "Work laptop"', async () => {
        const user = await gw.addUser();
        const b = await atOffer(user, '/account/');
        const options = await credentialOptions(b);
        expect(options.rp.id).toBe('localhost');
        expect(Buffer.from(options.user.id, 'base64url').toString('utf8')).toBe(user.id);
        expect(options.excludeCredentials).toEqual([]);
        expect(options.authenticatorSelection).toMatchObject({
          residentKey: 'preferred',
          userVerification: 'preferred',
        });
        const { payload } = device.register(options);
        const res = await b.post('/api/Account/RegisterCredential', payload);
        expect(res.status).toBe(209);
        expect(res.body.redirect).toBe('/account/');
        await b.exchange(res.body.state as string);
        const me = await b.agent.get('/api/Account/User').expect(200);
        expect(me.body.isAuthenticated).toBe(true);
        const devices = await gw.store.passkeys.listForUser(user.id);
        expect(devices.map((d) => d.name)).toEqual(['Work laptop']);
        expect(devices[0]!.id).toBe(payload.id);
      });

      it('does not offer registration when the browser has no platform authenticator, or the user has a device', async () => {
        const plain = await gw.addUser();
        const b = await browser(gw.app);
        const res = await b.signIn(plain.username, undefined, { returnUrl: '/account/' });
        expect(res.body.redirect).toBe('/account/');
        const { user } = await userWithPasskey();
        const again = await browser(gw.app);
        const second = await again.signIn(user.username, undefined, {
          returnUrl: '/account/',
          platformAuthenticator: true,
        });
        expect(second.body.redirect).toBe('/account/');
      });

      it('excludes the credentials the user already has', async () => {
        const { user, credential } = await userWithPasskey();
        const b = await browser(gw.app);
        await b.signIn(user.username);
        const options = await credentialOptions(b, 'Phone');
        expect(options.excludeCredentials.map((c) => c.id)).toEqual([credential.id.toString('base64url')]);
      });

      it("a pending sign-in stored at the step's former id (`device-offer`, ADR 0057) goes on at the passkey offer", async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app);
        const res = await b.signIn(user.username, undefined, {
          returnUrl: '/account/',
          platformAuthenticator: true,
        });
        expect(res.body.redirect).toBe(OFFER('/account/'));
        // As a sign-in started before the rename left it in the session store.
        const key = sha256(String(sessionCookieOf(res)));
        const stored = await gw.sessionStore.get(key);
        if (stored?.kind !== 'live' || !stored.record.data.pending) throw new Error('no pending sign-in');
        expect(stored.record.data.pending.current).toBe('passkey-offer');
        stored.record.data.pending.current = 'device-offer';
        expect(await gw.sessionStore.update(key, stored.record, gw.clock.now() + 3_600_000)).toBe(true);
        const skipped = await b.post('/api/Account/SkipFido', {});
        expect(skipped.status).toBe(209);
        expect(skipped.body.redirect).not.toMatch(/^\/account\/login/);
      });

      it('SkipFido continues the sign-in and is remembered for 30 days; remember: false is not', async () => {
        const user = await gw.addUser();
        const b = await atOffer(user, '/account/');
        const skipped = await b.post('/api/Account/SkipFido', {});
        expect(skipped.status).toBe(209);
        expect(skipped.body.redirect).toBe('/account/');
        await b.exchange(skipped.body.state as string);
        expect((await b.agent.get('/api/Account/User')).body.isAuthenticated).toBe(true);

        const next = await browser(gw.app);
        const quiet = await next.signIn(user.username, undefined, { platformAuthenticator: true });
        expect(quiet.body.redirect).toBe('/');

        gw.clock.advance(PASSKEY_OFFER_QUIET_MS);
        await atOffer(user, '/account/');

        const other = await gw.addUser();
        const c = await atOffer(other);
        expect((await c.post('/api/Account/SkipFido', { remember: false })).status).toBe(209);
        await atOffer(other);
      });

      it('answers the offer calls only at the offer step or for a signed-in account', async () => {
        const b = await browser(gw.app);
        const res = await b.post('/api/Account/CredentialOptions?displayName=Laptop');
        // The protocol's empty 400: the flow starts again at the sign-in page.
        expect(res.status).toBe(400);
        expect(res.body).toEqual({});
        expect((await b.post('/api/Account/SkipFido', {})).status).toBe(400);
      });

      it('shows the device-registration error when the device answers for another origin, and keeps the step', async () => {
        const user = await gw.addUser();
        const b = await atOffer(user);
        const options = await credentialOptions(b);
        const { payload } = device.register(options, { origin: 'https://evil.example' });
        const res = await b.post('/api/Account/RegisterCredential', payload);
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual({ '': ['deviceRegistrationError'] });
        expect(await gw.store.passkeys.listForUser(user.id)).toEqual([]);
        // The user can still skip.
        expect((await b.post('/api/Account/SkipFido', {})).status).toBe(209);
      });

      it('S22 refuses a registration whose challenge was used, or came from another session', async () => {
        const user = await gw.addUser();
        const b = await atOffer(user);
        const options = await credentialOptions(b);
        const { payload } = device.register(options);
        const stranger = await atOffer(await gw.addUser());
        expect((await stranger.post('/api/Account/RegisterCredential', payload)).status).toBe(400);
        // Taken by the stranger's attempt: the owner's own answer is now refused too (single use).
        const res = await b.post('/api/Account/RegisterCredential', payload);
        expect(res.body.errors).toEqual({ '': ['deviceRegistrationError'] });
      });

      it('signs in with a passkey and no password, as two factors, under a new session id (S24)', async () => {
        const { user, credential } = await userWithPasskey();
        // A second factor is on: a passkey sign-in does not ask for it.
        await gw.store.secondFactors.enableAuthenticator(user.id, 'sealed', 0);
        const password = await browser(gw.app);
        expect((await password.signIn(user.username)).body.redirect).toMatch(/^\/account\/login\/twofactor/);
        const b = await browser(gw.app);
        const options = await assertionOptions(b);
        expect(options.rpId).toBe('localhost');
        expect(options.userVerification).toBe('required');
        const res = await secureLogin(b, device.assert(options, credential), '/account/');
        expect(res.status).toBe(209);
        expect(res.body.redirect).toBe('/account/');
        const cookie = sessionCookieOf(res);
        expect(cookie).toBeDefined();
        await b.exchange(res.body.state as string);
        const me = await b.agent.get('/api/Account/User').expect(200);
        expect(me.body).toMatchObject({ isAuthenticated: true, userName: user.username });
        const events = await gw.store.audit.listForUser(user.id);
        const completed = events.find((e) => e.kind === 'sign-in.completed');
        expect(completed?.data).toEqual({ amr: ['hwk', 'user', 'mfa'] });
        const [stored] = await gw.store.passkeys.listForUser(user.id);
        expect(stored!.counter).toBe(1);
        expect(stored!.lastUsedAt).not.toBeNull();
      });

      it('S24 the session id before a secure sign-in is dead after it', async () => {
        const { credential } = await userWithPasskey();
        const first = await request(gw.app).get('/api/Account/Antiforgery').expect(200);
        const jar = ((first.headers['set-cookie'] as unknown as string[]) ?? [])
          .map((c) => c.split(';')[0])
          .join('; ');
        const oldSession = sessionCookieOf(first);
        expect(oldSession).toBeDefined();
        const token = (first.body as { token: string }).token;
        const call = (url: string, body?: unknown) =>
          request(gw.app)
            .post(url)
            .set('cookie', jar)
            .set('x-csrf-token-value', token)
            .send(body as object);
        const options = (await call('/api/Account/AssertionOptions').expect(200)).body;
        const res = await call(
          '/api/Account/SecureLogin?returnUrl=/account/',
          device.assert(options, credential),
        );
        expect(res.status).toBe(209);
        const fresh = sessionCookieOf(res);
        expect(fresh).toBeDefined();
        expect(fresh).not.toBe(oldSession);
        const withOld = await request(gw.app).get('/api/Account/User').set('cookie', jar).expect(200);
        expect(withOld.body.isAuthenticated).toBe(false);
      });

      it('S22 challenges are 256 random bits, different every time', async () => {
        const b = await browser(gw.app);
        const one = await assertionOptions(b);
        const two = await assertionOptions(b);
        expect(Buffer.from(one.challenge, 'base64url').length).toBeGreaterThanOrEqual(16);
        expect(one.challenge).not.toBe(two.challenge);
      });

      it('S22 refuses a replayed assertion', async () => {
        const { credential } = await userWithPasskey();
        const b = await browser(gw.app);
        const payload = device.assert(await assertionOptions(b), credential);
        expect((await secureLogin(b, payload)).status).toBe(209);
        const replay = await browser(gw.app);
        await assertionOptions(replay);
        const res = await secureLogin(replay, payload);
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual({ '': ['secureSignInFailed'] });
        expect((await replay.agent.get('/api/Account/User')).body.isAuthenticated).toBe(false);
      });

      it('S22 a challenge is spent by any answer: the genuine one after a tampered one is refused', async () => {
        const { credential } = await userWithPasskey();
        const b = await browser(gw.app);
        const payload = device.assert(await assertionOptions(b), credential);
        const signature = Buffer.from(payload.response.signature, 'base64url');
        signature.writeUInt8(signature.readUInt8(signature.length - 1) ^ 0xff, signature.length - 1);
        const tampered = {
          ...payload,
          response: { ...payload.response, signature: signature.toString('base64url') },
        };
        expect((await secureLogin(b, tampered)).body.errors).toEqual({ '': ['secureSignInFailed'] });
        const res = await secureLogin(b, payload);
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual({ '': ['secureSignInFailed'] });
      });

      it('S22 refuses an assertion made for another origin or another RP id', async () => {
        const { credential } = await userWithPasskey();
        const b = await browser(gw.app);
        const wrongOrigin = device.assert(await assertionOptions(b), credential, {
          origin: 'https://login.evil.example',
        });
        expect((await secureLogin(b, wrongOrigin)).body.errors).toEqual({ '': ['secureSignInFailed'] });
        const wrongRp = device.assert(await assertionOptions(b), credential, { rpId: 'evil.example' });
        expect((await secureLogin(b, wrongRp)).body.errors).toEqual({ '': ['secureSignInFailed'] });
        // The same device answering properly still works: nothing was spent but the challenges.
        expect((await secureLogin(b, device.assert(await assertionOptions(b), credential))).status).toBe(209);
      });

      it('S22 refuses an expired challenge', async () => {
        const { credential } = await userWithPasskey();
        const b = await browser(gw.app);
        const options = await assertionOptions(b);
        gw.clock.advance(CHALLENGE_TTL_MS + 1_000);
        const res = await secureLogin(b, device.assert(options, credential));
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual({ '': ['secureSignInFailed'] });
      });

      it('S22 refuses a challenge issued to another browser', async () => {
        const { credential } = await userWithPasskey();
        const issuedTo = await browser(gw.app);
        const options = await assertionOptions(issuedTo);
        const other = await browser(gw.app);
        const res = await secureLogin(other, device.assert(options, credential));
        expect(res.body.errors).toEqual({ '': ['secureSignInFailed'] });
      });

      it('refuses an assertion without user verification (a passkey sign-in counts as two factors)', async () => {
        const { credential } = await userWithPasskey();
        const b = await browser(gw.app);
        const res = await secureLogin(
          b,
          device.assert(await assertionOptions(b), credential, { userVerified: false }),
        );
        expect(res.body.errors).toEqual({ '': ['secureSignInFailed'] });
      });

      it('S23 refuses a non-increasing counter (a cloned authenticator) and flags it in the audit log', async () => {
        const { user, credential } = await userWithPasskey();
        const b = await browser(gw.app);
        expect((await secureLogin(b, device.assert(await assertionOptions(b), credential))).status).toBe(209);
        const clone: SoftwareCredential = { ...credential };
        const c = await browser(gw.app);
        const res = await secureLogin(c, device.assert(await assertionOptions(c), clone, { counter: 1 }));
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual({ '': ['secureSignInFailed'] });
        const events = await gw.store.audit.listForUser(user.id);
        expect(events.find((e) => e.kind === 'webauthn.possible-clone')?.data).toMatchObject({
          storedCounter: 1,
          receivedCounter: 1,
        });
        // An authenticator that never counts (always 0) is not a clone.
        const zero = await userWithPasskey();
        for (let i = 0; i < 2; i += 1) {
          const z = await browser(gw.app);
          const ok = await secureLogin(
            z,
            device.assert(await assertionOptions(z), zero.credential, { counter: 0 }),
          );
          expect(ok.status).toBe(209);
        }
      });

      it('checks the user handle against the account the credential belongs to', async () => {
        const { credential } = await userWithPasskey();
        const other = await gw.addUser();
        const b = await browser(gw.app);
        const forged: SoftwareCredential = { ...credential, userHandle: Buffer.from(other.id, 'utf8') };
        const res = await secureLogin(b, device.assert(await assertionOptions(b), forged));
        expect(res.body.errors).toEqual({ '': ['secureSignInFailed'] });
      });

      it('refuses an unknown credential and a disabled account quietly', async () => {
        const { user, credential } = await userWithPasskey();
        const b = await browser(gw.app);
        const stranger = new SoftwareAuthenticator(gw.config.publicUrl);
        const { credential: unknown } = stranger.register({
          challenge: 'AAAAAAAAAAAAAAAAAAAAAA',
          rp: { id: 'localhost' },
          user: { id: Buffer.from(user.id).toString('base64url') },
        });
        expect((await secureLogin(b, stranger.assert(await assertionOptions(b), unknown))).status).toBe(400);
        await gw.store.users.update(user.id, { disabled: true });
        const res = await secureLogin(b, device.assert(await assertionOptions(b), credential));
        expect(res.body.errors).toEqual({ '': ['secureSignInFailed'] });
      });

      /** A signed-in browser of a user with one passkey registered through the offer. */
      async function signedInWithDevice() {
        const user = await gw.addUser();
        const b = await atOffer(user);
        const { payload } = device.register(await credentialOptions(b));
        const res = await b.post('/api/Account/RegisterCredential', payload);
        await b.exchange(res.body.state as string);
        return { user, b, id: payload.id };
      }

      it('lists the signed-in account’s devices with name, created and last used, never the key', async () => {
        const { b, id } = await signedInWithDevice();
        const res = await b.agent.get('/api/Account/Devices').expect(200);
        expect(res.body.devices).toEqual([
          { id, name: 'Work laptop', createdAt: expect.any(Number) as number, lastUsedAt: null },
        ]);
        const anonymous = await browser(gw.app);
        expect((await anonymous.agent.get('/api/Account/Devices')).status).toBe(401);
      });

      it('RenameDevice and RemoveDevice take the security centre’s path: each is audited and mailed', async () => {
        const { user, b, id } = await signedInWithDevice();
        const mails = async () => (await gw.store.outbox.list({ to: user.email! })).map((m) => m.text);
        const kinds = async () => (await gw.store.audit.list({ userId: user.id })).map((e) => e.kind);
        await b.post('/api/Account/RenameDevice', { id, name: 'Old laptop' }).expect(200);
        expect(await kinds()).toContain('passkey.renamed');
        expect((await mails()).some((text) => text.includes('A passkey on your account was renamed'))).toBe(
          true,
        );
        await b.post('/api/Account/RemoveDevice', { id }).expect(200);
        expect(await kinds()).toContain('passkey.deleted');
        expect((await mails()).some((text) => text.includes('A passkey was deleted from your account'))).toBe(
          true,
        );
      });

      it('S21 renames and removes a device right after a full sign-in, not later, and only the owner’s', async () => {
        const { user, b, id } = await signedInWithDevice();
        const renamed = await b.post('/api/Account/RenameDevice', { id, name: 'Old laptop' });
        expect(renamed.status).toBe(200);
        expect(renamed.body.devices[0].name).toBe('Old laptop');

        const other = await signedInWithDevice();
        expect((await other.b.post('/api/Account/RemoveDevice', { id })).status).toBe(404);
        expect(await gw.store.passkeys.listForUser(user.id)).toHaveLength(1);

        gw.clock.advance(DEFAULT_RECENT_SIGN_IN_MS + 1_000);
        const late = await b.post('/api/Account/RemoveDevice', { id });
        expect(late.status).toBe(403);
        expect(late.body.errors).toEqual({ '': ['recentSignInRequired'] });
        expect((await b.post('/api/Account/RenameDevice', { id, name: 'X' })).body.errors).toEqual({
          '': ['recentSignInRequired'],
        });
        expect(await gw.store.passkeys.listForUser(user.id)).toHaveLength(1);

        // A fresh passkey sign-in is a full sign-in: removing works again.
        const fresh = await browser(gw.app);
        const options = await assertionOptions(fresh);
        const credential = device.credentials.find((c) => c.id.toString('base64url') === id)!;
        const signedIn = await secureLogin(fresh, device.assert(options, credential));
        await fresh.exchange(signedIn.body.state as string);
        const removed = await fresh.post('/api/Account/RemoveDevice', { id });
        expect(removed.status).toBe(200);
        expect(removed.body.devices).toEqual([]);
      });

      it.each([
        ['bad base64', { id: 'not base64!', rawId: 'x', type: 'public-key', response: {} }],
        ['wrong types', { id: 1, rawId: [], type: 'public-key', response: 'x' }],
        ['wrong type', { id: 'abc', rawId: 'abc', type: 'password', response: {} }],
        ['no body', undefined],
      ])('answers a malformed SecureLogin payload (%s) with the 400 errors map', async (_name, body) => {
        const b = await browser(gw.app);
        await assertionOptions(b);
        const res = await secureLogin(b, body);
        expect(res.status).toBe(400);
        expect(res.body.errors).toBeTypeOf('object');
        expect(Object.keys(res.body.errors as object).length).toBeGreaterThan(0);
      });

      it('answers a malformed RegisterCredential payload and a missing display name with the 400 errors map', async () => {
        const user = await gw.addUser();
        const b = await atOffer(user);
        const res = await b.post('/api/Account/RegisterCredential', {
          id: 'abc',
          rawId: 'abc',
          type: 'public-key',
          response: { attestationObject: '%%%', clientDataJson: 'abc' },
        });
        expect(res.status).toBe(400);
        expect(res.body.errors).toMatchObject({ response: ['invalidValue'] });
        const noName = await b.post('/api/Account/CredentialOptions');
        expect(noName.status).toBe(400);
        expect(noName.body.errors).toEqual({ displayName: ['required'] });
        const huge = await b.post(`/api/Account/CredentialOptions?displayName=${'x'.repeat(65)}`);
        expect(huge.body.errors).toEqual({ displayName: ['invalidValue'] });
      });

      // Last: it spends this source's budget. The sign-in page's autofill asks on every visit, so the call is open to
      // anyone and stores a challenge each time; one source gets as many as it may start OIDC interactions.
      it('caps AssertionOptions per source: past the budget, the 400 errors map with Retry-After and no challenge', async () => {
        const b = await browser(gw.app);
        let refused: request.Response | undefined;
        for (let i = 0; i <= DEFAULT_INTERACTION_LIMIT.points && !refused; i += 1) {
          const res = await b.post('/api/Account/AssertionOptions');
          if (res.status !== 200) refused = res;
        }
        expect(refused?.status).toBe(400);
        expect(refused?.body.errors).toEqual({ '': ['tooManyAttempts'] });
        expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);
        expect(refused?.body.challenge).toBeUndefined();
      });
    },
  );
}
