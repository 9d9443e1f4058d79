import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebhookSmsSender } from '../infra/sms/sms-sender.js';
import {
  BACKENDS,
  browser,
  listenOnLoopback,
  startTestGateway,
  type LoopbackServer,
  type TestGateway,
} from '../testing/test-gateway.js';
import type { User } from '../store/user.repository.js';

type Browser = Awaited<ReturnType<typeof browser>>;

/** The authenticator app of the test (RFC 6238, as a phone app computes it). */
function codeAt(secret: string, at: number): string {
  return new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
    timestamp: at,
  });
}

/** The code in a text: the six digits it starts with. */
function codeOf(text: { text: string } | undefined): string {
  const code = /\b(\d{6})\b/.exec(text?.text ?? '')?.[1];
  if (!code) throw new Error(`no code in ${JSON.stringify(text)}`);
  return code;
}

const STEP_MS = 30_000;

/**
 * Two-step methods that do what they say (issue 49 items 5 and 6, ADR 0050): the default is chosen explicitly and
 * the sign-in lists it first; a method is added beside the others, keeping the default and the recovery codes; an
 * authenticator is replaced only on an explicit request; codes ignore spaces and case.
 */
for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `two-step methods (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      let provider: LoopbackServer;
      const texts: { to: string; text: string }[] = [];

      beforeAll(async () => {
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
          overrides: { sms: new WebhookSmsSender({ url: `${provider.origin}/sms`, token: 'test-token' }) },
        });
        gw.clock.advance(STEP_MS - (gw.clock.now() % STEP_MS) + 10_000);
      });
      afterAll(async () => {
        await gw.close();
        await provider.close();
      });
      beforeEach(() => {
        texts.length = 0;
      });

      /** A fresh browser at the 2FA step of a sign-in. */
      async function atTwoFactorStep(user: User): Promise<Browser> {
        const b = await browser(gw.app);
        const res = await b.signIn(user.username, undefined, { returnUrl: '/account/' });
        expect(res.body.redirect).toMatch(/^\/account\/login\/twofactor/);
        return b;
      }

      /**
       * A user whose first method is the authenticator (set up in the wizard at sign-in), then signed in again with
       * it: a recent full sign-in, as the security centre has. Returns the secret and the first recovery codes.
       */
      async function signedInWithAuthenticator() {
        const user = await gw.addUser({ requiresTwoFactor: true });
        const wizard = await browser(gw.app);
        await wizard.signIn(user.username, undefined, { returnUrl: '/account/' });
        const view = await wizard.agent.get('/api/Account/Setup2FAView').expect(200);
        const secret = String(view.body.authenticator.secret).replace(/ /g, '');
        const confirmed = await wizard
          .post('/api/Account/Validate2faSetupCode', {
            method: 'authenticator',
            code: codeAt(secret, gw.clock.now()),
          })
          .expect(200);
        // The first method brings the first recovery codes.
        expect(typeof confirmed.body.recoveryCodesId).toBe('string');
        const shown = await wizard
          .post(`/api/Account/RedeemRecoveryCode?id=${String(confirmed.body.recoveryCodesId)}`)
          .expect(200);
        expect((await wizard.post('/api/Account/EnableTwoFactor?returnUrl=/account/')).status).toBe(209);
        gw.clock.advance(STEP_MS);
        const b = await atTwoFactorStep(user);
        const done = await b.post('/api/Account/LoginWith2FA', {
          method: 'authenticator',
          code: codeAt(secret, gw.clock.now()),
        });
        expect(done.status).toBe(209);
        await b.exchange(String(done.body.state));
        gw.clock.advance(STEP_MS);
        return { user, b, secret, codes: shown.body.codes as string[] };
      }

      /** Adds SMS from the signed-in account; returns the answer of the confirmation. */
      async function addSms(b: Browser, phone = '+447700900123', replace?: boolean) {
        await b.post('/api/Account/GeneratePhoneVerification', { phone }).expect(200);
        return b.post('/api/Account/Validate2faSetupCode', {
          method: 'sms',
          code: codeOf(texts.at(-1)),
          ...(replace === undefined ? {} : { replace }),
        });
      }

      const signInMethods = async (user: User) =>
        (await (await atTwoFactorStep(user)).agent.get('/api/Account/LoginWith2FAView').expect(200)).body
          .methods as string[];

      it('adding SMS beside the authenticator keeps the authenticator, the default and the recovery codes', async () => {
        const { user, b, secret, codes } = await signedInWithAuthenticator();
        const added = await addSms(b);
        expect(added.status).toBe(200);
        // No new set: the codes the account has are kept (ADR 0050).
        expect(added.body).toEqual({ recoveryCodesId: null });
        expect(await gw.store.recoveryCodes.remaining(user.id)).toBe(codes.length);

        const centre = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        expect(centre.body.twoStep.methods).toEqual([
          { method: 'authenticator', isDefault: true },
          { method: 'sms', isDefault: false, detail: '•••• 123' },
        ]);
        // The sign-in opens on the default, which adding SMS did not change.
        expect(await signInMethods(user)).toEqual(['authenticator', 'sms']);

        // The authenticator still signs in, and so does an old recovery code.
        const withApp = await atTwoFactorStep(user);
        const app = await withApp.post('/api/Account/LoginWith2FA', {
          method: 'authenticator',
          code: codeAt(secret, gw.clock.now()),
        });
        expect(app.status).toBe(209);
        const withCode = await atTwoFactorStep(user);
        const recovery = await withCode.post('/api/Account/LoginWithRecoveryCode', {
          recoveryCode: codes[0],
        });
        expect(recovery.status).toBe(209);
      });

      it('the default is chosen explicitly: SetDefaultTwoStepMethod puts it first at sign-in, adding a method keeps it', async () => {
        const { user, b } = await signedInWithAuthenticator();
        await addSms(b).then((res) => expect(res.status).toBe(200));
        await b.post('/api/Account/SetDefaultTwoStepMethod', { method: 'sms' }).expect(200);
        expect(await signInMethods(user)).toEqual(['sms', 'authenticator']);

        // The PIN added later does not take the default either.
        await gw.store.secondFactors.enablePin(user.id);
        expect(await signInMethods(user)).toEqual(['sms', 'authenticator', 'pin']);
        await b.post('/api/Account/SetDefaultTwoStepMethod', { method: 'authenticator' }).expect(200);
        expect(await signInMethods(user)).toEqual(['authenticator', 'sms', 'pin']);
      });

      it('an authenticator set up already is replaced only on an explicit request, keeping the default and the codes', async () => {
        const { user, b, secret } = await signedInWithAuthenticator();
        await addSms(b).then((res) => expect(res.status).toBe(200));
        await b.post('/api/Account/SetDefaultTwoStepMethod', { method: 'sms' }).expect(200);
        const remaining = await gw.store.recoveryCodes.remaining(user.id);

        const view = await b.agent.get('/api/Account/Setup2FAView').expect(200);
        expect(view.body.configured).toEqual(['sms', 'authenticator']);
        const fresh = String(view.body.authenticator.secret).replace(/ /g, '');
        // Omitting `replace` (or saying false) cannot replace the app the account has.
        for (const body of [
          { method: 'authenticator', code: codeAt(fresh, gw.clock.now()) },
          { method: 'authenticator', code: codeAt(fresh, gw.clock.now()), replace: false },
        ]) {
          const refused = await b.post('/api/Account/Validate2faSetupCode', body);
          expect({ status: refused.status, errors: refused.body.errors }).toEqual({
            status: 400,
            errors: { '': ['twoStepMethodExists'] },
          });
        }
        gw.clock.advance(STEP_MS);
        const stillOld = await atTwoFactorStep(user);
        expect(
          (
            await stillOld.post('/api/Account/LoginWith2FA', {
              method: 'authenticator',
              code: codeAt(secret, gw.clock.now()),
            })
          ).status,
        ).toBe(209);

        const replaced = await b.post('/api/Account/Validate2faSetupCode', {
          method: 'authenticator',
          code: codeAt(fresh, gw.clock.now()),
          replace: true,
        });
        expect(replaced.status).toBe(200);
        expect(replaced.body).toEqual({ recoveryCodesId: null });
        expect(await gw.store.recoveryCodes.remaining(user.id)).toBe(remaining);
        expect(await signInMethods(user)).toEqual(['sms', 'authenticator']);

        gw.clock.advance(STEP_MS);
        const oldApp = await atTwoFactorStep(user);
        const refusedOld = await oldApp.post('/api/Account/LoginWith2FA', {
          method: 'authenticator',
          code: codeAt(secret, gw.clock.now()),
        });
        expect(refusedOld.body.errors).toEqual({ code: ['invalidCode'] });
        const newApp = await atTwoFactorStep(user);
        const accepted = await newApp.post('/api/Account/LoginWith2FA', {
          method: 'authenticator',
          code: codeAt(fresh, gw.clock.now()),
        });
        expect(accepted.status).toBe(209);
      });

      it('a phone set up already is replaced only on an explicit request', async () => {
        const { b } = await signedInWithAuthenticator();
        await addSms(b, '+447700900123').then((res) => expect(res.status).toBe(200));
        const refused = await addSms(b, '+447700900999');
        expect(refused.body.errors).toEqual({ '': ['twoStepMethodExists'] });
        let centre = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        expect(centre.body.twoStep.methods[1]).toMatchObject({ method: 'sms', detail: '•••• 123' });
        await addSms(b, '+447700900999', true).then((res) => expect(res.status).toBe(200));
        centre = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        expect(centre.body.twoStep.methods[1]).toMatchObject({ method: 'sms', detail: '•••• 999' });
        const bad = await b.post('/api/Account/Validate2faSetupCode', {
          method: 'sms',
          code: '123456',
          replace: 'yes',
        });
        expect({ status: bad.status, errors: bad.body.errors }).toEqual({
          status: 400,
          errors: { replace: ['invalidValue'] },
        });
      });

      it('codes ignore spaces and case: an authenticator code with spaces and a dash, a recovery code in lower case', async () => {
        const { user, secret, codes } = await signedInWithAuthenticator();
        const spaced = codeAt(secret, gw.clock.now()).replace(/^(\d{3})(\d{3})$/, ' $1 -$2 ');
        const b = await atTwoFactorStep(user);
        expect(
          (await b.post('/api/Account/LoginWith2FA', { method: 'authenticator', code: spaced })).status,
        ).toBe(209);
        const lower = codes[1]!.toLowerCase().replace(/-/g, ' ');
        const c = await atTwoFactorStep(user);
        expect((await c.post('/api/Account/LoginWithRecoveryCode', { recoveryCode: lower })).status).toBe(
          209,
        );
      });
    },
  );
}
