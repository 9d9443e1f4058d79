import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EMAIL_CHANGE_ACCOUNT_LIMIT,
  EMAIL_CHANGE_LIMIT_WINDOW_MS,
  EMAIL_CHANGE_SOURCE_LIMIT,
  EMAIL_CHANGE_TTL_MS,
} from '../identity/account/security-centre/email-change.js';
import { DEFAULT_RECENT_SIGN_IN_MS } from '../identity/two-factor/two-factor.service.js';
import type { User } from '../store/user.repository.js';
import {
  BACKENDS,
  browser,
  startTestGateway,
  TEST_PASSWORD,
  type TestGateway,
} from '../testing/test-gateway.js';

type Browser = Awaited<ReturnType<typeof browser>>;

const STEP_MS = 30_000;
const NEW_PASSWORD = 'Lantern-Orchid-47!';

function codeAt(secret: string, at: number): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: at });
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `security centre (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      beforeAll(async () => {
        gw = await startTestGateway({ backend: backend.name });
        gw.clock.advance(STEP_MS - (gw.clock.now() % STEP_MS) + 10_000);
      });
      afterAll(async () => {
        await gw.close();
      });

      async function signedIn(user: User): Promise<Browser> {
        const b = await browser(gw.app);
        const res = await b.signIn(user.username);
        expect(res.status).toBe(209);
        return b;
      }

      const mailsTo = (user: User) => gw.store.outbox.list({ to: user.email! });

      /** A user who must use two-step verification, signed in through the set-up wizard (authenticator). */
      async function signedInWithAuthenticator() {
        const user = await gw.addUser({ requiresTwoFactor: true });
        const b = await browser(gw.app);
        const start = await b.signIn(user.username, undefined, { returnUrl: '/account/' });
        expect(start.status).toBe(209);
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
        return { user, b };
      }

      it('answers 401 to a browser that is not signed in, and 400 with the errors map on bad input', async () => {
        const anonymous = await browser(gw.app);
        await anonymous.agent.get('/api/Account/SecurityCentreView').expect(401);
        await anonymous.post('/api/Account/UpdateProfile', { displayName: 'X' }).expect(401);
        const b = await signedIn(await gw.addUser());
        const bad = await b.post('/api/Account/UpdateProfile', { displayName: 'x'.repeat(101) }).expect(400);
        expect(bad.body.errors).toEqual({ displayName: ['invalidValue'] });
        const wrongType = await b.post('/api/Account/UpdateProfile', { displayName: 42 }).expect(400);
        expect(wrongType.body.errors).toEqual({ displayName: ['required'] });
        const missing = await b.post('/api/Account/SignOutSession', {}).expect(400);
        expect(missing.body.errors).toEqual({ id: ['required'] });
        // Without the anti-forgery header nothing changes (S30).
        await b.agent.post('/api/Account/UpdateProfile').send({ displayName: 'Evil' }).expect(400);
      });

      it('S21 refuses every change without a recent sign-in (403 recentSignInRequired), and SignInAgain leads to the sign-in page', async () => {
        const user = await gw.addUser();
        const b = await signedIn(user);
        const view = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        expect(view.body.recentSignInUntil).toBeGreaterThan(gw.clock.now());
        gw.clock.advance(DEFAULT_RECENT_SIGN_IN_MS + 1000);
        const stale = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        expect(stale.body.recentSignInUntil).toBe(0);
        for (const [call, body] of [
          ['UpdateProfile', { displayName: 'Changed' }],
          ['SignOutOtherSessions', {}],
          [
            'ChangePassword',
            { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
          ],
          ['RegenerateRecoveryCodes', {}],
        ] as const) {
          const res = await b.post(`/api/Account/${call}`, body);
          expect(res.status, call).toBe(403);
          expect(res.body.errors).toEqual({ '': ['recentSignInRequired'] });
        }
        expect((await gw.store.users.findById(user.id))?.displayName).toBe('Test User');
        const again = await b.post('/api/Account/SignInAgain').expect(200);
        expect(again.body.redirect).toBe('/account/login?returnUrl=%2Faccount%2F');
        await b.agent.get('/api/Account/SecurityCentreView').expect(401);
      });

      it('SignInAgain comes back to the account page it was asked from, never elsewhere', async () => {
        for (const [returnUrl, back] of [
          ['/account/registerdevice?returnUrl=/account/', '/account/registerdevice?returnUrl=/account/'],
          ['/account/setup-twofactor?returnUrl=/account/', '/account/setup-twofactor?returnUrl=/account/'],
          ['https://evil.example/', '/account/'],
          ['//evil.example/account/', '/account/'],
          ['/connect/authorize?client_id=x', '/account/'],
          ['/account/login?returnUrl=/account/', '/account/'],
          [42, '/account/'],
        ] as const) {
          const b = await signedIn(await gw.addUser());
          const again = await b.post('/api/Account/SignInAgain', { returnUrl }).expect(200);
          expect(again.body.redirect, String(returnUrl)).toBe(
            `/account/login?returnUrl=${encodeURIComponent(back)}`,
          );
        }
      });

      it('updates the display name, audits it and mails the user', async () => {
        const user = await gw.addUser();
        const b = await signedIn(user);
        await b.post('/api/Account/UpdateProfile', { displayName: '  Ada Lovelace ' }).expect(200);
        expect((await gw.store.users.findById(user.id))?.displayName).toBe('Ada Lovelace');
        const mails = await mailsTo(user);
        expect(mails.map((m) => m.subject)).toContain('Security settings changed for your Identity account');
        expect(mails[0]?.text).toContain('Your profile was updated');
        const audit = await gw.store.audit.list({ userId: user.id });
        expect(audit.map((e) => e.kind)).toContain('security-centre.profile-updated');
      });

      it('changes the e-mail address only through the link mailed to the new address; the old one hears of it', async () => {
        const user = await gw.addUser();
        const other = await gw.addUser();
        const b = await signedIn(user);
        const newAddress = `new-${user.username}@example.test`;

        // Clear 400s: not an address, the same address (an address another account uses: see S10 below).
        const bad = await b.post('/api/Account/RequestEmailChange', { email: 'not-an-address' }).expect(400);
        expect(bad.body.errors).toEqual({ email: ['invalidEmail'] });
        const missing = await b.post('/api/Account/RequestEmailChange', {}).expect(400);
        expect(missing.body.errors).toEqual({ email: ['required'] });
        const same = await b
          .post('/api/Account/RequestEmailChange', { email: user.email!.toUpperCase() })
          .expect(400);
        expect(same.body.errors).toEqual({ email: ['emailUnchanged'] });

        await b.post('/api/Account/RequestEmailChange', { email: newAddress }).expect(200);
        // Nothing changes yet; the view says what is waiting.
        expect((await gw.store.users.findById(user.id))?.email).toBe(user.email);
        const waiting = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        expect(waiting.body.profile).toMatchObject({ email: user.email, pendingEmail: newAddress });
        const [mail] = await gw.store.outbox.list({ to: newAddress });
        expect(mail?.subject).toBe('Confirm your new email address for Identity');
        const token = /confirmEmail=([A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
        // The token is stored only as a hash.
        expect(JSON.stringify(await gw.store.outbox.list({ to: user.email! }))).not.toContain(token);

        // Another account cannot use the link, and that does not use it up.
        const stranger = await signedIn(other);
        const foreign = await stranger.post('/api/Account/ConfirmEmailChange', { token }).expect(400);
        expect(foreign.body.errors).toEqual({ token: ['emailChangeLinkInvalid'] });

        const confirmed = await b.post('/api/Account/ConfirmEmailChange', { token }).expect(200);
        expect(confirmed.body).toEqual({ email: newAddress });
        expect((await gw.store.users.findById(user.id))?.email).toBe(newAddress);
        const notice = (await mailsTo(user)).find((m) =>
          m.text.includes('email address of your account was changed'),
        );
        expect(notice?.subject).toBe('Security settings changed for your Identity account');
        // Once only.
        const again = await b.post('/api/Account/ConfirmEmailChange', { token }).expect(400);
        expect(again.body.errors).toEqual({ token: ['emailChangeLinkInvalid'] });
        const audit = await gw.store.audit.list({ userId: user.id });
        expect(audit.map((e) => e.kind)).toEqual(
          expect.arrayContaining(['security-centre.email-change-requested', 'security-centre.email-changed']),
        );
      });

      it('an e-mail change link expires, and only the latest one works; asking needs a recent sign-in', async () => {
        const user = await gw.addUser();
        const b = await signedIn(user);
        const tokenFor = async (address: string) => {
          await b.post('/api/Account/RequestEmailChange', { email: address }).expect(200);
          const [mail] = await gw.store.outbox.list({ to: address });
          return /confirmEmail=([A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
        };
        const first = await tokenFor(`first-${user.username}@example.test`);
        const second = await tokenFor(`second-${user.username}@example.test`);
        await b.post('/api/Account/ConfirmEmailChange', { token: first }).expect(400);
        gw.clock.advance(DEFAULT_RECENT_SIGN_IN_MS + 1000);
        const stale = await b.post('/api/Account/RequestEmailChange', {
          email: `third-${user.username}@example.test`,
        });
        expect(stale.status).toBe(403);
        expect(stale.body.errors).toEqual({ '': ['recentSignInRequired'] });
        gw.clock.advance(EMAIL_CHANGE_TTL_MS);
        const later = await signedIn(user);
        await later.post('/api/Account/ConfirmEmailChange', { token: second }).expect(400);
        expect((await gw.store.users.findById(user.id))?.email).toBe(user.email);
      });

      /** The mails to `address` in the outbox, oldest first. */
      const outboxTo = async (address: string) => (await gw.store.outbox.list({ to: address })).reverse();

      it('S10 RequestEmailChange answers a taken address exactly as a free one; the taken one gets a notice without a link, and no mail carries the caller’s display name (issue 48)', async () => {
        const user = await gw.addUser();
        const other = await gw.addUser();
        // Words a stranger would like the service to send for them.
        const words = 'Win a prize at evil.example';
        await gw.store.users.update(user.id, { displayName: words });
        const b = await browser(gw.app, '198.51.100.10');
        expect((await b.signIn(user.username)).status).toBe(209);
        const free = `free-${user.username}@example.test`;

        const answers = [];
        for (const email of [free, other.email!]) {
          const res = await b.post('/api/Account/RequestEmailChange', { email });
          const view = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
          answers.push({
            status: res.status,
            body: res.body as unknown,
            headers: Object.fromEntries(
              [
                'content-type',
                'content-length',
                'cache-control',
                'content-language',
                'retry-after',
                'etag',
              ].map((h) => [h, res.headers[h] as unknown]),
            ),
            // The view shows the address asked for as waiting, whoever uses it.
            pending: view.body.profile.pendingEmail === email,
          });
        }
        expect(answers[0]).toMatchObject({ status: 200, body: {}, pending: true });
        expect(answers[1]).toEqual(answers[0]);

        const [link] = await outboxTo(free);
        expect(link?.subject).toBe('Confirm your new email address for Identity');
        expect(link?.text).toMatch(/confirmEmail=/);
        const notices = await outboxTo(other.email!);
        expect(notices).toHaveLength(1);
        expect(notices[0]?.subject).toBe('Someone tried to use your email address at Identity');
        expect(notices[0]?.text).toContain('nothing was changed');
        expect(notices[0]?.text).not.toMatch(/confirmEmail=/);
        // Neither mail carries the caller's words, in either part.
        for (const mail of [link!, notices[0]!]) {
          expect(mail.text).not.toContain(words);
          expect(mail.text.startsWith('Hello,\n')).toBe(true);
          expect(mail.html ?? '').not.toContain(words);
        }
        // The other account is untouched.
        expect((await gw.store.users.findById(other.id))?.email).toBe(other.email);
      });

      it('S10 an address taken between the request and the link is refused at confirmation, with a clear message', async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app, '198.51.100.11');
        expect((await b.signIn(user.username)).status).toBe(209);
        const address = `race-${user.username}@example.test`;
        await b.post('/api/Account/RequestEmailChange', { email: address }).expect(200);
        const [mail] = await outboxTo(address);
        const token = /confirmEmail=([A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
        // Meanwhile another account starts using the address.
        const other = await gw.addUser();
        await gw.store.users.update(other.id, { email: address });
        const refused = await b.post('/api/Account/ConfirmEmailChange', { token }).expect(400);
        expect(refused.body.errors).toEqual({ email: ['emailNotAvailable'] });
        expect(refused.body.detail).toBe('This email address cannot be used. Choose another one.');
        expect((await gw.store.users.findById(user.id))?.email).toBe(user.email);
        expect(
          (await b.agent.get('/api/Account/SecurityCentreView').expect(200)).body.profile.pendingEmail,
        ).toBe(null);
      });

      it('S6 RequestEmailChange is limited per account (429 + Retry-After), taken and free addresses alike', async () => {
        const user = await gw.addUser();
        const other = await gw.addUser();
        const b = await browser(gw.app, '198.51.100.20');
        expect((await b.signIn(user.username)).status).toBe(209);
        for (let i = 0; i < EMAIL_CHANGE_ACCOUNT_LIMIT; i += 1) {
          const email = i === 1 ? other.email! : `n${i}-${user.username}@example.test`;
          await b.post('/api/Account/RequestEmailChange', { email }).expect(200);
        }
        const over = `over-${user.username}@example.test`;
        const refused = await b.post('/api/Account/RequestEmailChange', { email: over });
        expect(refused.status).toBe(429);
        expect(refused.body.errors).toEqual({ '': ['tooManyAttempts'] });
        const retryAfter = Number(refused.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(EMAIL_CHANGE_LIMIT_WINDOW_MS / 1000);
        // Refused: no mail, and a taken address is refused the same.
        expect(await outboxTo(over)).toHaveLength(0);
        const takenOver = await b.post('/api/Account/RequestEmailChange', { email: other.email });
        expect(takenOver.status).toBe(429);
        expect(takenOver.headers['retry-after']).toBeDefined();
        // The same account from another source: the account's budget is spent.
        const elsewhere = await browser(gw.app, '198.51.100.21');
        expect((await elsewhere.signIn(user.username)).status).toBe(209);
        expect((await elsewhere.post('/api/Account/RequestEmailChange', { email: over })).status).toBe(429);
      });

      it('S6 RequestEmailChange is limited per source over all accounts (429 + Retry-After)', async () => {
        const source = '198.51.100.30';
        let sent = 0;
        let refused: Awaited<ReturnType<Browser['post']>> | undefined;
        // Fresh accounts, each under its own limit, all from one address.
        for (let round = 0; !refused && round <= EMAIL_CHANGE_SOURCE_LIMIT; round += 1) {
          const user = await gw.addUser();
          const b = await browser(gw.app, source);
          expect((await b.signIn(user.username)).status).toBe(209);
          for (let i = 0; i < EMAIL_CHANGE_ACCOUNT_LIMIT && !refused; i += 1) {
            const res = await b.post('/api/Account/RequestEmailChange', {
              email: `s${i}-${user.username}@example.test`,
            });
            if (res.status === 429) refused = res;
            else {
              expect(res.status).toBe(200);
              sent += 1;
            }
          }
        }
        expect(sent).toBe(EMAIL_CHANGE_SOURCE_LIMIT);
        if (!refused) throw new Error('never refused');
        expect(refused.body.errors).toEqual({ '': ['tooManyAttempts'] });
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        // Another source is not held back by it.
        const user = await gw.addUser();
        const b = await browser(gw.app, '198.51.100.31');
        expect((await b.signIn(user.username)).status).toBe(209);
        await b
          .post('/api/Account/RequestEmailChange', { email: `ok-${user.username}@example.test` })
          .expect(200);
      });

      it('changes the password only with the right current password, keeps this browser signed in and ends the others (S15)', async () => {
        const user = await gw.addUser();
        const b = await signedIn(user);
        const other = await signedIn(user);
        const wrong = await b
          .post('/api/Account/ChangePassword', {
            currentPassword: 'not-the-password',
            newPassword: NEW_PASSWORD,
            confirmPassword: NEW_PASSWORD,
          })
          .expect(400);
        expect(wrong.body.errors).toEqual({ currentPassword: ['currentPasswordIncorrect'] });
        const weak = await b
          .post('/api/Account/ChangePassword', {
            currentPassword: TEST_PASSWORD,
            newPassword: 'a',
            confirmPassword: 'b',
          })
          .expect(400);
        expect(Object.keys(weak.body.errors)).toEqual(
          expect.arrayContaining(['newPassword', 'confirmPassword']),
        );
        expect(await mailsTo(user)).toHaveLength(0);

        const done = await b
          .post('/api/Account/ChangePassword', {
            currentPassword: TEST_PASSWORD,
            newPassword: NEW_PASSWORD,
            confirmPassword: NEW_PASSWORD,
          })
          .expect(200);
        b.token = String(done.body.token);
        // This browser goes on; the other one is signed out.
        const view = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        expect(view.body.sessions).toHaveLength(1);
        await other.agent.get('/api/Account/SecurityCentreView').expect(401);
        expect((await mailsTo(user)).map((m) => m.subject)).toContain('Your Identity password was changed');
        // The new password signs in; the old one does not.
        expect((await (await browser(gw.app)).signIn(user.username, NEW_PASSWORD)).status).toBe(209);
        expect((await (await browser(gw.app)).signIn(user.username, TEST_PASSWORD)).status).toBe(400);
      });

      it('S27 lists the signed-in sessions; signing one out really ends it, and "all others" keeps this one', async () => {
        const user = await gw.addUser();
        const b = await signedIn(user);
        const second = await signedIn(user);
        const third = await signedIn(user);
        const view = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        const sessions = view.body.sessions as { id: string; current: boolean; network: unknown }[];
        expect(sessions).toHaveLength(3);
        // An IPv4 client of a dual-stack socket ("::ffff:127.0.0.1") is read as the loopback it is (ADR 0049).
        expect(sessions.map((s) => s.network)).toEqual(Array(3).fill({ kind: 'thisDevice' }));
        expect(sessions.filter((s) => s.current)).toHaveLength(1);
        // The page sees a handle, never the session's key or cookie.
        const secondView = await second.agent.get('/api/Account/SecurityCentreView').expect(200);
        const secondId = (secondView.body.sessions as { id: string; current: boolean }[]).find(
          (s) => s.current,
        )!.id;
        await b.post('/api/Account/SignOutSession', { id: secondId }).expect(200);
        await second.agent.get('/api/Account/SecurityCentreView').expect(401);
        expect((await second.agent.get('/api/Account/User').expect(200)).body.isAuthenticated).toBe(false);
        await third.agent.get('/api/Account/SecurityCentreView').expect(200);
        // Its own session cannot be signed out this way, nor an unknown one.
        const own = sessions.find((s) => s.current)!.id;
        await b.post('/api/Account/SignOutSession', { id: own }).expect(404);
        await b.post('/api/Account/SignOutSession', { id: 'unknown' }).expect(404);

        const all = await b.post('/api/Account/SignOutOtherSessions').expect(200);
        expect(all.body.signedOut).toBe(1);
        await third.agent.get('/api/Account/SecurityCentreView').expect(401);
        const after = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        expect(after.body.sessions).toHaveLength(1);
        expect((await mailsTo(user))[0]?.text).toContain('signed out on other devices');
      });

      it('another account cannot sign out my sessions', async () => {
        const mine = await signedIn(await gw.addUser());
        const stranger = await signedIn(await gw.addUser());
        const id = (
          (await mine.agent.get('/api/Account/SecurityCentreView')).body.sessions as { id: string }[]
        )[0]!.id;
        await stranger.post('/api/Account/SignOutSession', { id }).expect(404);
        await mine.agent.get('/api/Account/SecurityCentreView').expect(200);
      });

      it('refuses to remove the last two-step method where it is required; removes it once another exists; sets the default', async () => {
        const { user, b } = await signedInWithAuthenticator();
        const view = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        expect(view.body.twoStep).toEqual({
          methods: [{ method: 'authenticator', isDefault: true }],
          required: true,
        });
        expect(view.body.recoveryCodes.remaining).toBeGreaterThan(0);
        const refused = await b
          .post('/api/Account/RemoveTwoStepMethod', { method: 'authenticator' })
          .expect(400);
        expect(refused.body.errors).toEqual({ '': ['lastTwoStepMethodRequired'] });
        await b.post('/api/Account/RemoveTwoStepMethod', { method: 'sms' }).expect(404);
        await b.post('/api/Account/RemoveTwoStepMethod', { method: 'fax' }).expect(400);

        await gw.store.secondFactors.enablePin(user.id);
        await b.post('/api/Account/SetDefaultTwoStepMethod', { method: 'authenticator' }).expect(200);
        let methods = (await b.agent.get('/api/Account/SecurityCentreView')).body.twoStep
          .methods as unknown[];
        expect(methods).toEqual([
          { method: 'authenticator', isDefault: true },
          { method: 'pin', isDefault: false, detail: user.email },
        ]);
        await b.post('/api/Account/RemoveTwoStepMethod', { method: 'authenticator' }).expect(200);
        methods = (await b.agent.get('/api/Account/SecurityCentreView')).body.twoStep.methods as unknown[];
        expect(methods).toEqual([{ method: 'pin', isDefault: true, detail: user.email }]);
        const subjects = (await mailsTo(user)).map((m) => m.text);
        expect(subjects.some((t) => t?.includes('A two-step verification method was removed'))).toBe(true);
        expect(
          subjects.some((t) => t?.includes('Your default two-step verification method was changed')),
        ).toBe(true);
      });

      it('regenerates recovery codes once (the old set dies) and mails the user', async () => {
        const { user, b } = await signedInWithAuthenticator();
        const res = await b.post('/api/Account/RegenerateRecoveryCodes').expect(200);
        const codes = res.body.codes as string[];
        expect(codes.length).toBeGreaterThanOrEqual(8);
        expect(await gw.store.recoveryCodes.remaining(user.id)).toBe(codes.length);
        expect((await mailsTo(user))[0]?.text).toContain('a new set of recovery codes');
      });

      it('renames and deletes only its own passkeys, with the last use listed, and mails each change', async () => {
        const user = await gw.addUser();
        const stranger = await signedIn(await gw.addUser());
        const b = await signedIn(user);
        await gw.store.passkeys.add({
          id: 'cred-aaaaaaaaaaaaaaaa',
          userId: user.id,
          publicKey: 'pk',
          counter: 0,
          transports: ['internal'],
          name: 'Laptop',
        });
        await gw.store.passkeys.recordUse('cred-aaaaaaaaaaaaaaaa', 0, 1);
        const view = await b.agent.get('/api/Account/SecurityCentreView').expect(200);
        expect(view.body.passkeys).toEqual([
          expect.objectContaining({
            id: 'cred-aaaaaaaaaaaaaaaa',
            name: 'Laptop',
            lastUsedAt: gw.clock.now(),
          }),
        ]);
        await stranger
          .post('/api/Account/RenamePasskey', { id: 'cred-aaaaaaaaaaaaaaaa', name: 'Mine' })
          .expect(404);
        await stranger.post('/api/Account/DeletePasskey', { id: 'cred-aaaaaaaaaaaaaaaa' }).expect(404);
        await b.post('/api/Account/RenamePasskey', { id: 'cred-aaaaaaaaaaaaaaaa', name: '' }).expect(400);
        await b
          .post('/api/Account/RenamePasskey', { id: 'cred-aaaaaaaaaaaaaaaa', name: 'Work laptop' })
          .expect(200);
        expect((await gw.store.passkeys.find('cred-aaaaaaaaaaaaaaaa'))?.name).toBe('Work laptop');
        await b.post('/api/Account/DeletePasskey', { id: 'cred-aaaaaaaaaaaaaaaa' }).expect(200);
        expect(await gw.store.passkeys.listForUser(user.id)).toEqual([]);
        const bodies = (await mailsTo(user)).map((m) => m.text);
        expect(bodies[0]).toContain('A passkey was deleted from your account');
        expect(bodies[1]).toContain('A passkey on your account was renamed');
        // The device page's RenameDevice/RemoveDevice run the same path (issue 50): one record per change.
        const kinds = (await gw.store.audit.list({ userId: user.id })).map((e) => e.kind);
        expect(kinds.filter((kind) => kind.startsWith('passkey.'))).toEqual(
          expect.arrayContaining(['passkey.renamed', 'passkey.deleted']),
        );
        expect(kinds.filter((kind) => kind.startsWith('passkey.'))).toHaveLength(2);
      });
    },
  );
}
