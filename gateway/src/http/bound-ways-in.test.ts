/**
 * Issue 48, finding 3 (ADR 0042): every new way in is bound and announced. A passkey (real WebAuthn through the
 * software authenticator), a second-factor method or recovery codes added by a session that has not proved a second
 * factor are bound to the account's security stamp: the owner's reset by mail removes them, so the passkey no longer
 * signs in nor counts as two factors and the e-mail change it would have allowed is refused. One added by a session
 * that proved a second factor survives the reset. Each addition is mailed to the account at once, read here at a real
 * SMTP listener, in the request's language (all five locales), with the browser, the time and the security centre.
 */
import { Secret, TOTP } from 'otpauth';
import type { ParsedMail } from 'mailparser';
import { SUPPORTED_LOCALES } from 'shared-contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTotpSecret } from '../identity/two-factor/totp.service.js';
import { recoveryMailsSettled } from '../identity/recovery/recovery.service.js';
import { SmtpMailer } from '../infra/mail/mailer.js';
import { startSmtpListener, type SmtpListener } from '../testing/smtp-listener.js';
import { WebhookSmsSender } from '../infra/sms/sms-sender.js';
import type { User } from '../store/user.repository.js';
import { SoftwareAuthenticator, type SoftwareCredential } from '../testing/software-authenticator.js';
import {
  BACKENDS,
  browser,
  listenOnLoopback,
  startTestGateway,
  type LoopbackServer,
  type TestGateway,
} from '../testing/test-gateway.js';

type Browser = Awaited<ReturnType<typeof browser>>;

const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROME_ON_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

function codeAt(secret: string, at: number): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: at });
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `every new way in is bound and announced (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      let smtp: SmtpListener;
      let provider: LoopbackServer;
      let device: SoftwareAuthenticator;
      const texts: { to: string; text: string }[] = [];
      let ip = 0;

      beforeAll(async () => {
        smtp = await startSmtpListener();
        provider = await listenOnLoopback((req, res) => {
          let body = '';
          req.on('data', (chunk: Buffer) => (body += chunk.toString()));
          req.on('end', () => {
            texts.push(JSON.parse(body) as { to: string; text: string });
            res.writeHead(202).end();
          });
        });
        gw = await startTestGateway({
          backend: backend.name,
          overrides: {
            mailer: new SmtpMailer(smtp.url, 'identity@example.test'),
            sms: new WebhookSmsSender({ url: `${provider.origin}/sms`, token: 'test-token' }),
          },
        });
        device = new SoftwareAuthenticator(gw.config.publicUrl);
      });
      afterAll(async () => {
        await gw.close();
        await smtp.close();
        await provider.close();
      });

      /** A browser of its own (source address and user agent), as two people's browsers are. */
      async function visitor(userAgent = CHROME_ON_LINUX): Promise<Browser> {
        ip += 1;
        const b = await browser(gw.app, `203.0.113.${ip}`);
        b.agent.set('User-Agent', userAgent);
        return b;
      }

      /** The mails to `to` received after `after`, waiting for `count` of them as a recipient would. */
      async function mailsTo(to: string, after: number, count = 1): Promise<ParsedMail[]> {
        for (let i = 0; i < 150; i += 1) {
          const found = smtp.received
            .slice(after)
            .filter((m) => m.envelopeTo.includes(to))
            .map((m) => m.mail);
          if (found.length >= count) return found;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        throw new Error(`fewer than ${count} mails to ${to}`);
      }

      /** The "way in added" mails among `mails`. */
      const added = (mails: ParsedMail[]) =>
        mails.filter((m) => m.subject?.startsWith('A new way to sign in was added'));

      /** Registers a passkey as the browser's session stands (offer step or signed-in account). */
      async function registerPasskey(b: Browser, name = 'Laptop'): Promise<SoftwareCredential> {
        const options = await b.post(`/api/Account/CredentialOptions?displayName=${name}`).expect(200);
        const { payload, credential } = device.register(options.body);
        const res = await b.post('/api/Account/RegisterCredential', payload);
        expect(res.status).toBe(209);
        await b.exchange(res.body.state as string);
        return credential;
      }

      /** A passkey sign-in from a fresh browser: the 209 (then signed in) or the refusal. */
      async function passkeySignIn(credential: SoftwareCredential, userAgent?: string) {
        const b = await visitor(userAgent);
        const options = await b.post('/api/Account/AssertionOptions').expect(200);
        const res = await b.post(
          '/api/Account/SecureLogin?returnUrl=/account/',
          device.assert(options.body, credential),
        );
        if (res.status === 209) await b.exchange(res.body.state as string);
        return { b, res };
      }

      /** The owner's reset by mail: Recover, the link in the mail, ResetPassword. */
      async function resetByMail(user: User, password = 'A-new-Passw0rd-of-the-owner!') {
        const owner = await visitor();
        const before = smtp.received.length;
        await owner.post('/api/Account/Recover', { username: user.username }).expect(200);
        await recoveryMailsSettled();
        const [mail] = (await mailsTo(user.email!, before)).filter((m) =>
          m.subject?.startsWith('Reset your'),
        );
        const token = /reset-password\?token=([\w-]+)/.exec(mail?.text ?? '')?.[1];
        expect(token).toBeDefined();
        const done = await owner.post('/api/Account/ResetPassword', {
          token,
          newPassword: password,
          confirmPassword: password,
        });
        expect(done.status).toBeLessThan(300);
      }

      it('S15 S21 a passkey added with the password only (no 2FA) is mailed at once; after the owner resets the password by mail it no longer signs in, counts for nothing, and RequestEmailChange is refused', async () => {
        const user = await gw.addUser();
        // The attacker knows the password; the browser offers to register a passkey after it.
        const attacker = await visitor(FIREFOX_ON_WINDOWS);
        const before = smtp.received.length;
        const start = await attacker.signIn(user.username, undefined, {
          returnUrl: '/account/',
          platformAuthenticator: true,
        });
        expect(start.body.redirect).toMatch(/^\/account\/registerdevice/);
        const credential = await registerPasskey(attacker);

        // Announced at once: what, when, from which browser, and the security centre.
        const [mail] = added(await mailsTo(user.email!, before));
        expect(mail?.text).toContain('Added to your account on ');
        expect(mail?.text).toContain('UTC, from Firefox on Windows: a passkey.');
        expect(mail?.text).toContain(`${gw.config.publicUrl}/account/`);

        // Before the reset the passkey is two factors and a recent full sign-in: the takeover of the issue.
        const { b: thief, res: first } = await passkeySignIn(credential, FIREFOX_ON_WINDOWS);
        expect(first.status).toBe(209);
        expect(await gw.store.users.hasWebauthnCredential(user.id)).toBe(true);

        await resetByMail(user);

        // The attacker's passkey session ended with the reset, and nothing it allowed is left.
        const change = await thief.post('/api/Account/RequestEmailChange', { email: 'thief@evil.example' });
        expect(change.status).toBe(401);
        const { b: again, res: refused } = await passkeySignIn(credential, FIREFOX_ON_WINDOWS);
        expect(refused.status).toBe(400);
        expect(refused.body.errors).toEqual({ '': ['secureSignInFailed'] });
        expect((await again.agent.get('/api/Account/User')).body.isAuthenticated).toBe(false);
        const changeAgain = await again.post('/api/Account/RequestEmailChange', {
          email: 'thief@evil.example',
        });
        expect(changeAgain.status).toBe(401);
        // It counts as no factor at all: the account has no passkey, so no sign-in step asks for one.
        expect(await gw.store.passkeys.listForUser(user.id)).toEqual([]);
        expect(await gw.store.users.hasWebauthnCredential(user.id)).toBe(false);
        expect((await gw.store.users.findById(user.id))?.email).toBe(user.email);
      });

      it('S15 a passkey added by a session that proved a second factor survives the reset, and still signs in', async () => {
        const user = await gw.addUser();
        const secret = newTotpSecret();
        await gw.store.secondFactors.enableAuthenticator(user.id, gw.store.secrets.encrypt(secret), 0);
        const b = await visitor();
        const start = await b.signIn(user.username, undefined, { returnUrl: '/account/' });
        expect(start.body.redirect).toMatch(/^\/account\/login\/twofactor/);
        const proved = await b.post('/api/Account/LoginWith2FA', {
          method: 'authenticator',
          code: codeAt(secret, gw.clock.now()),
        });
        expect(proved.status).toBe(209);
        await b.exchange(proved.body.state as string);
        const before = smtp.received.length;
        // From the security centre (a signed-in account whose full sign-in, with its second factor, is recent).
        const credential = await registerPasskey(b, 'Phone');
        expect(added(await mailsTo(user.email!, before))[0]?.text).toContain('a passkey');

        await resetByMail(user);

        const { res } = await passkeySignIn(credential);
        expect(res.status).toBe(209);
        expect((await gw.store.passkeys.listForUser(user.id)).map((c) => c.name)).toEqual(['Phone']);
      });

      it('S15 S21 an authenticator, SMS, the PIN and recovery codes added with the password only are each mailed, and the reset removes them all', async () => {
        const user = await gw.addUser();
        const b = await visitor();
        await b.signIn(user.username, undefined, { returnUrl: '/account/' });
        const before = smtp.received.length;

        // The authenticator, from the account (no factor yet: the password alone is a full sign-in).
        const view = await b.agent.get('/api/Account/Setup2FAView').expect(200);
        const secret = String(view.body.authenticator.secret).replace(/ /g, '');
        await b
          .post('/api/Account/Validate2faSetupCode', {
            method: 'authenticator',
            code: codeAt(secret, gw.clock.now()),
          })
          .expect(200);
        // The wizard counts its new factor as proved, but it was bound: what follows is bound too.
        const sent = await b.post('/api/Account/GeneratePhoneVerification', { phone: '+44 7700 900123' });
        expect(sent.status).toBe(200);
        const text = texts.at(-1)?.text ?? '';
        await b
          .post('/api/Account/Validate2faSetupCode', { method: 'sms', code: /\b(\d{6})\b/.exec(text)?.[1] })
          .expect(200);
        const pinSent = await b.post('/api/Account/GeneratePin');
        expect(pinSent.status).toBe(200);
        const pinMail = (await mailsTo(user.email!, before, 3)).find(
          (m) => !m.subject?.startsWith('A new way'),
        );
        const pin = /^\s*(\d{8})\s*$/m.exec(pinMail?.text ?? '')?.[1] ?? '';
        const ref = await b.agent.get('/api/Account/PinReference').expect(200);
        const digits = (ref.body.positions as number[]).map((p) => pin[p - 1]).join('');
        await b.post('/api/Account/Validate2faSetupCode', { method: 'pin', code: digits }).expect(200);
        await b.post('/api/Account/RegenerateRecoveryCodes').expect(200);

        const mails = added(await mailsTo(user.email!, before, 5));
        const lines = mails.map((m) => /: ([^:]+)\.\n/.exec(m.text ?? '')?.[1]);
        expect(lines).toEqual([
          'an authenticator app for two-step verification',
          'text message (SMS) codes for two-step verification',
          'a PIN by email for two-step verification',
          'a new set of recovery codes',
        ]);
        for (const mail of mails) expect(mail.text).toContain('Chrome on Linux');
        const factor = await gw.store.secondFactors.find(user.id);
        expect(factor).toMatchObject({ smsPhone: '+447700900123', pinEnabled: true });
        expect(factor?.totpSecretSealed).not.toBeNull();

        await resetByMail(user);

        expect(await gw.store.secondFactors.find(user.id)).toBeUndefined();
        expect(await gw.store.recoveryCodes.remaining(user.id)).toBe(0);
        expect(await gw.store.users.hasSecondFactor(user.id)).toBe(false);
        // The next sign-in asks for no second factor it no longer has.
        const next = await visitor();
        const res = await next.signIn(user.username, 'A-new-Passw0rd-of-the-owner!', {
          returnUrl: '/account/',
        });
        expect(res.body.redirect).toBe('/account/');
      });

      const SUBJECTS: Record<(typeof SUPPORTED_LOCALES)[number], string> = {
        'en-GB': 'A new way to sign in was added to your',
        en: 'A new way to sign in was added to your',
        de: 'Neue Anmeldemöglichkeit für Ihr Konto bei',
        'fr-CA': 'Une nouvelle façon de vous connecter a été ajoutée à votre compte',
        es: 'Se agregó una nueva forma de iniciar sesión a su cuenta de',
      };
      const LINES: Record<(typeof SUPPORTED_LOCALES)[number], RegExp> = {
        'en-GB': /Added to your account on .+ UTC, from Chrome on Linux: a passkey\./,
        en: /Added to your account on .+ UTC, from Chrome on Linux: a passkey\./,
        de: /am .+ UTC wurde Ihrem Konto von Chrome unter Linux aus Folgendes hinzugefügt: ein Passkey\./,
        'fr-CA': /Ajouté à votre compte le .+ UTC, depuis Chrome sur Linux : une clé d’accès\./,
        es: /Se agregó a su cuenta el .+ UTC, desde Chrome en Linux: una llave de acceso\./,
      };

      it.each(SUPPORTED_LOCALES.map((locale) => ({ locale })))(
        'S21 the mail of one addition (a passkey) arrives in $locale, the language of the request',
        async ({ locale }) => {
          const user = await gw.addUser();
          const b = await visitor();
          b.agent.set('Accept-Language', locale);
          await b.signIn(user.username, undefined, { returnUrl: '/account/' });
          const before = smtp.received.length;
          await registerPasskey(b);
          const [mail] = await mailsTo(user.email!, before);
          expect(mail?.subject).toContain(SUBJECTS[locale]);
          expect(mail?.text).toMatch(LINES[locale]);
          expect(mail?.text).toContain(`${gw.config.publicUrl}/account/`);
          expect(mail?.html).toContain(`<html lang="${locale}">`);
        },
      );
    },
  );
}
