import { Secret, TOTP } from 'otpauth';
import { PIN_LENGTH } from 'shared-contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTCHA_RISK } from '../identity/captcha/captcha.service.js';
import { DEFAULT_RECENT_SIGN_IN_MS } from '../identity/two-factor/two-factor.service.js';
import type { User } from '../store/user.repository.js';
import { altchaChallengeFor, solveAltcha } from '../testing/altcha-solver.js';
import { SoftwareAuthenticator } from '../testing/software-authenticator.js';
import {
  BACKENDS,
  browser,
  sessionCookieOf,
  startTestGateway,
  TEST_PASSWORD,
  type TestGateway,
} from '../testing/test-gateway.js';

type Browser = Awaited<ReturnType<typeof browser>>;

const STEP_MS = 30_000;
/** Wrong passwords one browser may try for an account before its own counter refuses (this gateway's setting). */
const OWN_FAILURES = 3;

function codeAt(secret: string, at: number): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: at });
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `confirm it's you (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      beforeAll(async () => {
        gw = await startTestGateway({
          backend: backend.name,
          throttleLimits: { perAccountSource: OWN_FAILURES, freeFailures: 100 },
        });
        gw.clock.advance(STEP_MS - (gw.clock.now() % STEP_MS) + 10_000);
      });
      afterAll(async () => {
        await gw.close();
      });

      /** Signed in with the password, then the window lapsed: every change answers 403 now. */
      async function lapsed(user: User): Promise<Browser> {
        const b = await browser(gw.app);
        expect((await b.signIn(user.username)).status).toBe(209);
        gw.clock.advance(DEFAULT_RECENT_SIGN_IN_MS + 1000);
        await expectRefused(b);
        return b;
      }

      async function expectRefused(b: Browser) {
        const res = await b.post('/api/Account/UpdateProfile', { displayName: 'Refused' });
        expect(res.status).toBe(403);
        expect(res.body.errors).toEqual({ '': ['recentSignInRequired'] });
      }

      /** A confirmation's answer; a confirmed one brings the new session's anti-forgery token. */
      async function confirm(b: Browser, call: string, body: unknown) {
        const res = await b.post(`/api/Account/${call}`, body);
        if (res.status === 200 && res.body.confirmed === true) b.token = String(res.body.token);
        return res;
      }

      /** A user who must use two-step verification, signed in through the set-up wizard (authenticator). */
      async function withAuthenticator() {
        const user = await gw.addUser({ requiresTwoFactor: true });
        const b = await browser(gw.app);
        expect((await b.signIn(user.username, undefined, { returnUrl: '/account/' })).status).toBe(209);
        const view = await b.agent.get('/api/Account/Setup2FAView').expect(200);
        const secret = String(view.body.authenticator.secret).replace(/ /g, '');
        const confirmed = await b
          .post('/api/Account/Validate2faSetupCode', {
            method: 'authenticator',
            code: codeAt(secret, gw.clock.now()),
          })
          .expect(200);
        await b
          .post(`/api/Account/RedeemRecoveryCode?id=${String(confirmed.body.recoveryCodesId)}`)
          .expect(200);
        const done = await b.post('/api/Account/EnableTwoFactor?returnUrl=/account/');
        expect(done.status).toBe(209);
        await b.exchange(String(done.body.state));
        return { user, b, secret };
      }

      it('S21 a lapsed window is renewed in place by the password: the refused change then goes through, same account, new session id (S24)', async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app);
        const login = await b.signIn(user.username);
        const exchanged = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        const oldSession = sessionCookieOf(login) ?? sessionCookieOf(exchanged);
        gw.clock.advance(DEFAULT_RECENT_SIGN_IN_MS + 1000);
        await expectRefused(b);
        const view = await b.agent.get('/api/Account/ConfirmItsYouView').expect(200);
        expect(view.body).toEqual({ password: true, passkey: false, secondFactor: [] });

        const wrong = await confirm(b, 'ConfirmItsYou', { password: 'not-the-password' });
        expect(wrong.status).toBe(400);
        expect(wrong.body.errors).toEqual({ password: ['currentPasswordIncorrect'] });
        await expectRefused(b);

        const before = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        const right = await confirm(b, 'ConfirmItsYou', { password: TEST_PASSWORD });
        expect(right.status).toBe(200);
        expect(right.body.confirmed).toBe(true);
        // A new session id (S24): the one the sign-in gave is dead now.
        const newSession = sessionCookieOf(right);
        expect(oldSession).toBeDefined();
        expect(newSession).toBeDefined();
        expect(newSession).not.toBe(oldSession);
        await request(gw.app)
          .get('/api/Account/SecurityCentreView')
          .set('Cookie', `idp.session=${String(oldSession)}`)
          .expect(401);
        await b.post('/api/Account/UpdateProfile', { displayName: 'Kept As Typed' }).expect(200);
        expect((await gw.store.users.findById(user.id))?.displayName).toBe('Kept As Typed');
        const after = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        expect(after.body.profile.userName).toBe(before.body.profile.userName);
        expect(after.body.recentSignInUntil).toBeGreaterThan(gw.clock.now());
        expect(await gw.store.audit.countByKind('confirm-its-you.confirmed')).toBeGreaterThan(0);
      });

      it('S21 only a proved factor renews the window: the view, a second factor without the password, and wrong answers never do', async () => {
        const { user, b, secret } = await withAuthenticator();
        gw.clock.advance(DEFAULT_RECENT_SIGN_IN_MS + 1000);
        await expectRefused(b);
        const view = await b.agent.get('/api/Account/ConfirmItsYouView').expect(200);
        expect(view.body).toEqual({
          password: true,
          passkey: false,
          secondFactor: ['authenticator', 'recoveryCode'],
        });
        await expectRefused(b);

        // The second factor alone is not a confirmation: the password comes first.
        const early = await confirm(b, 'ConfirmItsYouSecondFactor', {
          method: 'authenticator',
          code: codeAt(secret, gw.clock.now()),
        });
        expect(early.status).toBe(400);
        expect(early.body.errors).toEqual({ '': ['confirmItsYouPasswordFirst'] });
        await expectRefused(b);

        // The password of an account with a second factor is half of it: the window stays closed.
        const half = await confirm(b, 'ConfirmItsYou', { password: TEST_PASSWORD });
        expect(half.status).toBe(200);
        expect(half.body).toEqual({ confirmed: false, secondFactor: ['authenticator', 'recoveryCode'] });
        await expectRefused(b);

        const wrongCode = await confirm(b, 'ConfirmItsYouSecondFactor', {
          method: 'authenticator',
          code: '000000',
        });
        expect(wrongCode.status).toBe(400);
        expect(wrongCode.body.errors).toEqual({ code: ['invalidCode'] });
        await expectRefused(b);

        gw.clock.advance(STEP_MS);
        const done = await confirm(b, 'ConfirmItsYouSecondFactor', {
          method: 'authenticator',
          code: codeAt(secret, gw.clock.now()),
        });
        expect(done.status).toBe(200);
        expect(done.body.confirmed).toBe(true);
        await b.post('/api/Account/UpdateProfile', { displayName: 'Second Factor' }).expect(200);
        expect((await gw.store.users.findById(user.id))?.displayName).toBe('Second Factor');
      });

      it('S21 a recovery code completes the confirmation after the password, once', async () => {
        const { b } = await withAuthenticator();
        const codes = await b.post('/api/Account/RegenerateRecoveryCodes').expect(200);
        const code = String((codes.body.codes as string[])[0]);
        gw.clock.advance(DEFAULT_RECENT_SIGN_IN_MS + 1000);
        await expectRefused(b);
        expect((await confirm(b, 'ConfirmItsYou', { password: TEST_PASSWORD })).body.confirmed).toBe(false);
        const done = await confirm(b, 'ConfirmItsYouSecondFactor', { method: 'recoveryCode', code });
        expect(done.status).toBe(200);
        await b.post('/api/Account/UpdateProfile', { displayName: 'Recovered' }).expect(200);

        gw.clock.advance(DEFAULT_RECENT_SIGN_IN_MS + 1000);
        expect((await confirm(b, 'ConfirmItsYou', { password: TEST_PASSWORD })).body.confirmed).toBe(false);
        const again = await confirm(b, 'ConfirmItsYouSecondFactor', { method: 'recoveryCode', code });
        expect(again.status).toBe(400);
        await expectRefused(b);
      });

      /** The texts and mails the outbox holds for `to`, oldest first. */
      async function sentTo(to: string): Promise<string[]> {
        return (await gw.store.outbox.list({ to })).map((entry) => entry.text).reverse();
      }

      let phones = 0;
      /** A user signed in with the password who then sets up a texted code or a PIN (in the store); lapsed. */
      async function lapsedWith(method: 'sms' | 'pin') {
        const user = await gw.addUser();
        const b = await browser(gw.app);
        expect((await b.signIn(user.username)).status).toBe(209);
        phones += 1;
        const phone = `+4477009${String(phones).padStart(5, '0')}`;
        if (method === 'sms') await gw.store.secondFactors.enableSms(user.id, phone);
        else await gw.store.secondFactors.enablePin(user.id);
        gw.clock.advance(DEFAULT_RECENT_SIGN_IN_MS + 1000);
        await expectRefused(b);
        return { user, b, phone };
      }

      it('S21 a texted code is sent only when Send is pressed, after the password, and completes the confirmation', async () => {
        const { b, phone } = await lapsedWith('sms');
        const view = await b.agent.get('/api/Account/ConfirmItsYouView').expect(200);
        expect(view.body).toEqual({
          password: true,
          passkey: false,
          secondFactor: ['sms'],
          maskedPhone: `•••• ${phone.slice(-4)}`,
        });

        // Nothing goes out before the password, nor with it: only Send texts.
        const early = await b.post('/api/Account/ConfirmItsYouSendCode', { method: 'sms' });
        expect(early.status).toBe(400);
        expect(early.body.errors).toEqual({ '': ['confirmItsYouPasswordFirst'] });
        const half = await confirm(b, 'ConfirmItsYou', { password: TEST_PASSWORD });
        expect(half.body).toEqual({ confirmed: false, secondFactor: ['sms'] });
        expect(await sentTo(phone)).toEqual([]);

        // A method the account does not have sends nothing.
        const pin = await b.post('/api/Account/ConfirmItsYouSendCode', { method: 'pin' });
        expect(pin.status).toBe(400);
        expect(pin.body.errors).toEqual({ method: ['invalidValue'] });

        const sent = await b.post('/api/Account/ConfirmItsYouSendCode', { method: 'sms' });
        expect(sent.status).toBe(200);
        expect(sent.body).toMatchObject({ sent: true, to: `•••• ${phone.slice(-4)}` });
        expect(sent.body.retryAfterSeconds).toBeGreaterThan(0);
        // Pressed again at once: the code sent is still the one to type, nothing new goes out.
        const again = await b.post('/api/Account/ConfirmItsYouSendCode', { method: 'sms' });
        expect(again.body).toMatchObject({ sent: false });
        const texts = await sentTo(phone);
        expect(texts).toHaveLength(1);
        const code = /\b(\d{6})\b/.exec(texts[0] ?? '')?.[1] ?? '';

        const wrong = await confirm(b, 'ConfirmItsYouSecondFactor', { method: 'sms', code: '000000' });
        expect(wrong.status).toBe(400);
        expect(wrong.body.errors).toEqual({ code: ['invalidCode'] });
        await expectRefused(b);
        const done = await confirm(b, 'ConfirmItsYouSecondFactor', { method: 'sms', code });
        expect(done.status).toBe(200);
        expect(done.body.confirmed).toBe(true);
        await b.post('/api/Account/UpdateProfile', { displayName: 'Texted' }).expect(200);
        expect(await gw.store.audit.countByKind('confirm-its-you.code-sent')).toBeGreaterThan(0);
      });

      it('S21 a mailed PIN: Send mails a new one and names the digits to type; those digits confirm', async () => {
        const { user, b } = await lapsedWith('pin');
        const view = await b.agent.get('/api/Account/ConfirmItsYouView').expect(200);
        expect(view.body).toMatchObject({
          secondFactor: ['pin'],
          maskedEmail: expect.stringContaining('•••@'),
        });
        expect((await confirm(b, 'ConfirmItsYou', { password: TEST_PASSWORD })).body).toEqual({
          confirmed: false,
          secondFactor: ['pin'],
        });
        expect(await sentTo(user.email!)).toEqual([]);
        const sent = await b.post('/api/Account/ConfirmItsYouSendCode', { method: 'pin' });
        expect(sent.status).toBe(200);
        const positions = sent.body.positions as number[];
        expect(positions.length).toBeGreaterThan(0);
        const mails = await sentTo(user.email!);
        expect(mails).toHaveLength(1);
        const pin = new RegExp(`^\\s*(\\d{${PIN_LENGTH}})\\s*$`, 'm').exec(mails[0] ?? '')?.[1] ?? '';
        const digits = positions.map((position) => pin[position - 1]).join('');
        const done = await confirm(b, 'ConfirmItsYouSecondFactor', { method: 'pin', code: digits });
        expect(done.status).toBe(200);
        expect(done.body.confirmed).toBe(true);
        await b.post('/api/Account/UpdateProfile', { displayName: 'Mailed' }).expect(200);
      });

      it('S4 S7 wrong passwords in the dialog count on the sign-in throttle: after the limit even the right one is refused (429)', async () => {
        const user = await gw.addUser();
        const b = await lapsed(user);
        for (let i = 0; i < OWN_FAILURES; i++) {
          expect((await confirm(b, 'ConfirmItsYou', { password: `wrong-${i}` })).status).toBe(400);
        }
        const locked = await confirm(b, 'ConfirmItsYou', { password: TEST_PASSWORD });
        expect(locked.status).toBe(429);
        expect(locked.body.errors).toEqual({ '': ['tooManyAttempts'] });
        expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
        await expectRefused(b);
        // The same budget as the sign-in page's: this browser's Login for the account is refused too.
        const login = await b.post('/api/Account/Login', {
          username: user.username,
          password: TEST_PASSWORD,
          rememberMe: false,
        });
        expect(login.status).not.toBe(209);
        expect(await gw.store.audit.countByKind('confirm-its-you.failed')).toBeGreaterThanOrEqual(
          OWN_FAILURES,
        );
      });

      it('S30 answers 400 with the errors map on bad input, 401 signed out, and nothing without the anti-forgery header', async () => {
        const anonymous = await browser(gw.app);
        await anonymous.agent.get('/api/Account/ConfirmItsYouView').expect(401);
        await anonymous.post('/api/Account/ConfirmItsYou', { password: TEST_PASSWORD }).expect(401);

        const user = await gw.addUser();
        const b = await lapsed(user);
        for (const [call, body, errors] of [
          ['ConfirmItsYou', {}, { password: ['required'] }],
          ['ConfirmItsYou', { password: '' }, { password: ['required'] }],
          ['ConfirmItsYou', { password: 42 }, { password: ['invalidValue'] }],
          ['ConfirmItsYouSecondFactor', {}, { method: ['invalidValue'], code: ['required'] }],
          [
            'ConfirmItsYouSecondFactor',
            { method: 'carrier-pigeon', code: '1' },
            { method: ['invalidValue'] },
          ],
          ['ConfirmItsYouSendCode', {}, { method: ['invalidValue'] }],
          ['ConfirmItsYouSendCode', { method: 'authenticator' }, { method: ['invalidValue'] }],
        ] as const) {
          const res = await b.post(`/api/Account/${call}`, body);
          expect(res.status, JSON.stringify(body)).toBe(400);
          expect(res.body.errors, JSON.stringify(body)).toEqual(errors);
        }
        // Without the header (a forged cross-site post) nothing is checked and nothing renewed.
        const forged = await b.agent.post('/api/Account/ConfirmItsYou').send({ password: TEST_PASSWORD });
        expect(forged.status).toBe(400);
        expect(forged.body.errors).toEqual({ '': ['antiforgeryInvalid'] });
        const view = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        expect(view.body.recentSignInUntil).toBe(0);
      });

      it('S21 a passkey of the account confirms at once; a passkey of another account does not', async () => {
        const device = new SoftwareAuthenticator(gw.config.publicUrl);
        async function withPasskey() {
          const user = await gw.addUser();
          const b = await browser(gw.app);
          expect((await b.signIn(user.username, undefined, { returnUrl: '/account/' })).status).toBe(209);
          const options = await b.post('/api/Account/CredentialOptions?displayName=Laptop').expect(200);
          const { payload, credential } = device.register(options.body);
          const registered = await b.post('/api/Account/RegisterCredential', payload);
          expect(registered.status).toBe(209);
          await b.exchange(String(registered.body.state));
          return { user, b, credential };
        }
        const mine = await withPasskey();
        const theirs = await withPasskey();
        gw.clock.advance(DEFAULT_RECENT_SIGN_IN_MS + 1000);
        await expectRefused(mine.b);
        const view = await mine.b.agent.get('/api/Account/ConfirmItsYouView').expect(200);
        expect(view.body.passkey).toBe(true);

        const foreignOptions = await mine.b.post('/api/Account/AssertionOptions').expect(200);
        const foreign = await confirm(mine.b, 'ConfirmItsYou', {
          passkey: device.assert(foreignOptions.body, theirs.credential),
        });
        expect(foreign.status).toBe(400);
        expect(foreign.body.errors).toEqual({ '': ['secureSignInFailed'] });
        await expectRefused(mine.b);

        const options = await mine.b.post('/api/Account/AssertionOptions').expect(200);
        const own = await confirm(mine.b, 'ConfirmItsYou', {
          passkey: device.assert(options.body, mine.credential),
        });
        expect(own.status).toBe(200);
        expect(own.body.confirmed).toBe(true);
        await mine.b.post('/api/Account/UpdateProfile', { displayName: 'Passkey' }).expect(200);
      });
    },
  );

  describe.skipIf(backend.skip)(
    `confirm it's you behind the partner's captcha (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      beforeAll(async () => {
        // The production default for partners without settings: the proof-of-work on risk (ADR 0014).
        gw = await startTestGateway({ backend: backend.name, overrides: { captchaFallback: {} } });
      });
      afterAll(async () => {
        await gw.close();
      });

      it('S9 after wrong passwords in the dialog the next one needs a solved challenge, as at sign-in; then it confirms', async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app);
        expect((await b.signIn(user.username)).status).toBe(209);
        gw.clock.advance(DEFAULT_RECENT_SIGN_IN_MS + 1000);
        const first = await b.agent.get('/api/Account/ConfirmItsYouView').expect(200);
        expect(first.body).toMatchObject({ captcha: { version: 1 }, captchaRequired: false });
        for (let i = 0; i < CAPTCHA_RISK.ownFailures; i += 1) {
          const wrong = await b.post('/api/Account/ConfirmItsYou', { password: `wrong-${i}` });
          expect(wrong.body.errors).toEqual({ password: ['currentPasswordIncorrect'] });
        }
        const view = await b.agent.get('/api/Account/ConfirmItsYouView').expect(200);
        expect(view.body).toMatchObject({ captcha: { version: 1 }, captchaRequired: true });
        // Even the right password is not checked without a solved challenge.
        const refused = await b.post('/api/Account/ConfirmItsYou', { password: TEST_PASSWORD });
        expect(refused.status).toBe(400);
        expect(refused.body.errors).toEqual({ '': ['captchaRequired'] });

        const token = await solveAltcha(await altchaChallengeFor(b, 'login'));
        await b.post('/api/Account/VerifyCaptcha', { version: 1, token, action: 'login' }).expect(200);
        const right = await b.post('/api/Account/ConfirmItsYou', { password: TEST_PASSWORD });
        expect(right.status).toBe(200);
        expect(right.body.confirmed).toBe(true);
        b.token = String(right.body.token);
        await b.post('/api/Account/UpdateProfile', { displayName: 'Behind Captcha' }).expect(200);
      });
    },
  );
}
