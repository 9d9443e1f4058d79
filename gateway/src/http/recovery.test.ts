import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_RULES } from 'shared-contracts';
import {
  RECOVER_LIMITS,
  RESET_TOKEN_TTL_MS,
  recoveryMailsSettled,
} from '../identity/recovery/recovery.service.js';
import { oneTimeTokenMailsSettled } from '../identity/one-time-token/one-time-sign-in.service.js';
import { PENDING_SIGN_IN_MS } from '../identity/sign-in/sign-in-context.js';
import { pkcePair } from '../testing/oidc-harness.js';
import { sha256 } from '../infra/crypto/tokens.js';
import type { User } from '../store/user.repository.js';
import {
  BACKENDS,
  browser,
  startTestGateway,
  TEST_PASSWORD,
  TestBrowser,
  type TestGateway,
} from '../testing/test-gateway.js';

const NEW_PASSWORD = 'Harbour lights over Kiel 7';

let ipCounter = 0;
/** A fresh source address per call, so the per-source throttle does not get in the way of other checks. */
function nextIp(): string {
  ipCounter += 1;
  return `198.51.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `recovery and passwords (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      beforeAll(async () => {
        gw = await startTestGateway({
          backend: backend.name,
          config: { publicUrl: 'https://id.example.test' },
        });
      });
      afterAll(async () => {
        await gw.close();
      });

      async function recover(login: string, headers: Record<string, string> = {}) {
        const b = await browser(gw.app, nextIp());
        let call = b.post('/api/Account/Recover', { username: login });
        for (const [name, value] of Object.entries(headers)) call = call.set(name, value);
        const res = await call;
        await recoveryMailsSettled();
        return res;
      }

      async function mailsTo(user: User) {
        return gw.store.outbox.list({ to: user.email! });
      }

      /** The token of the newest recovery mail to the user, read from the mail's link as the user would. */
      async function mailedLink(user: User): Promise<URL> {
        const mail = (await mailsTo(user)).find((m) => m.subject?.startsWith('Reset your'));
        expect(mail).toBeDefined();
        const href = /https?:\/\/\S+\/account\/reset-password\?token=[\w-]+/.exec(mail!.text)?.[0];
        expect(href).toBeDefined();
        return new URL(href!);
      }

      async function resetWith(token: string, password: string, confirm = password) {
        const b = await browser(gw.app, nextIp());
        return b.post('/api/Account/ResetPassword', {
          token,
          newPassword: password,
          confirmPassword: confirm,
        });
      }

      async function signInStatus(user: User, password: string) {
        const b = await browser(gw.app, nextIp());
        return (await b.signIn(user.username, password)).status;
      }

      it('S10 Recover answers the same status, body and headers whether the account exists or not', async () => {
        const user = await gw.addUser();
        const known = await recover(user.username);
        const unknown = await recover('nobody-at-all@example.test');
        expect(known.status).toBe(200);
        expect(unknown.status).toBe(known.status);
        expect(unknown.body).toEqual(known.body);
        expect(known.body).toEqual({ accepted: true });
        const comparable = (headers: Record<string, string>) => {
          const { date: _d, 'x-request-id': _r, ...rest } = headers;
          // Content-Security-Policy carries a fresh nonce each time; its shape is the same.
          return {
            ...rest,
            'content-security-policy': rest['content-security-policy']?.replace(/nonce-[^']+/g, 'nonce'),
          };
        };
        expect(comparable(unknown.headers)).toEqual(comparable(known.headers));
        expect(await mailsTo(user)).toHaveLength(1);
      });

      it('S12 S13 the mail links to PUBLIC_URL with a 256-bit token kept only as a hash, whatever Host says', async () => {
        const user = await gw.addUser();
        await recover(user.email!, { 'X-Forwarded-Host': 'evil.example', Host: 'evil.example' });
        const link = await mailedLink(user);
        expect(link.origin).toBe('https://id.example.test');
        expect(link.pathname).toBe('/account/reset-password');
        const token = link.searchParams.get('token')!;
        expect(Buffer.from(token, 'base64url')).toHaveLength(32);
        const rows = await gw.store.database.db
          .selectFrom('one_time_tokens')
          .selectAll()
          .where('user_id', '=', user.id)
          .execute();
        expect(rows).toHaveLength(1);
        expect(rows[0]!.token_hash).toBe(sha256(token));
        expect(JSON.stringify(rows)).not.toContain(token);
        const mail = (await mailsTo(user))[0]!;
        expect(mail.html).toContain('https://id.example.test/account/reset-password?token=');
        expect(`${mail.text}${mail.html}`).not.toContain('evil.example');
      });

      it('S2 S14 S15 a reset refuses a common password, sets a good one, signs nobody in, ends other sessions and mails a notice', async () => {
        const user = await gw.addUser();
        await gw.store.secondFactors.enableAuthenticator(
          user.id,
          gw.store.secrets.encrypt('JBSWY3DPEHPK3PXP'),
          0,
        );

        await recover(user.username);
        const token = (await mailedLink(user)).searchParams.get('token')!;
        const common = await resetWith(token, 'password123');
        expect(common.status).toBe(400);
        expect(common.body.errors).toEqual({ newPassword: ['passwordCommon'] });
        const decorated = await resetWith(token, 'Password123!');
        expect(decorated.body.errors).toEqual({ newPassword: ['passwordCommon'] });

        const resetter = await browser(gw.app, nextIp());
        const done = await resetter.post('/api/Account/ResetPassword', {
          token,
          newPassword: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        });
        expect(done.status).toBe(200);
        expect(done.body).toEqual({ passwordReset: true });
        // S14: not signed in by the reset.
        expect((await resetter.agent.get('/api/Account/User')).body).toMatchObject({
          isAuthenticated: false,
        });
        expect(await signInStatus(user, TEST_PASSWORD)).toBe(400);
        // S14: the new password leads to the second factor, not past it.
        const b = await browser(gw.app, nextIp());
        const signIn = await b.signIn(user.username, NEW_PASSWORD, { returnUrl: '/account/' });
        expect(signIn.status).toBe(209);
        expect(signIn.body.redirect).toBe('/account/login/twofactor?returnUrl=%2Faccount%2F');

        const notice = (await mailsTo(user)).find((m) => m.subject?.includes('was changed'));
        expect(notice).toBeDefined();
      });

      it('S15 a reset ends the user’s sessions signed in before it', async () => {
        const user = await gw.addUser();
        const before = await browser(gw.app, nextIp());
        expect((await before.signIn(user.username)).status).toBe(209);
        expect((await before.agent.get('/api/Account/User')).body).toMatchObject({ isAuthenticated: true });
        await recover(user.username);
        const token = (await mailedLink(user)).searchParams.get('token')!;
        expect((await resetWith(token, NEW_PASSWORD)).status).toBe(200);
        expect((await before.agent.get('/api/Account/User')).body).toMatchObject({ isAuthenticated: false });
        expect((await before.agent.get('/api/Account/ProfileImage')).status).toBe(401);
      });

      it('S12 a link works once, expires after an hour, and a newer link kills the older one', async () => {
        const user = await gw.addUser();
        await recover(user.username);
        const first = (await mailedLink(user)).searchParams.get('token')!;
        gw.clock.advance(1000);
        await recover(user.username);
        const links = (await mailsTo(user)).filter((m) => m.subject?.startsWith('Reset your'));
        expect(links).toHaveLength(2);
        const second = /token=([\w-]+)/.exec(links[0]!.text)![1]!;
        expect(second).not.toBe(first);

        const old = await resetWith(first, NEW_PASSWORD);
        expect(old.status).toBe(209);
        expect(old.body.redirect).toBe('/error/link-expired');

        expect((await resetWith(second, NEW_PASSWORD)).status).toBe(200);
        const again = await resetWith(second, `${NEW_PASSWORD}!`);
        expect(again.status).toBe(209);
        expect(again.body.redirect).toBe('/error/link-expired');
        expect(await signInStatus(user, `${NEW_PASSWORD}!`)).toBe(400);

        // Expiry: a fresh link is dead after the hour.
        await recover(user.username);
        const late = /token=([\w-]+)/.exec(
          (await mailsTo(user)).find((m) => m.subject?.startsWith('Reset'))!.text,
        )![1]!;
        gw.clock.advance(RESET_TOKEN_TTL_MS + 1);
        const expired = await resetWith(late, 'Another fine passphrase');
        expect(expired.status).toBe(209);
        expect(expired.body.redirect).toBe('/error/link-expired');
      });

      it('S12 S42 one link redeemed by 10 parallel requests resets exactly once', async () => {
        const user = await gw.addUser();
        await recover(user.username);
        const token = (await mailedLink(user)).searchParams.get('token')!;
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => resetWith(token, `Parallel passphrase number ${i}`)),
        );
        expect(results.filter((r) => r.status === 200)).toHaveLength(1);
        expect(results.filter((r) => r.status === 209)).toHaveLength(9);
      });

      it('PasswordRules: the defaults, a partner’s own rules, and a dead link sent to /error/link-expired before anything is typed', async () => {
        const anonymous = await browser(gw.app, nextIp());
        expect((await anonymous.post('/api/Account/PasswordRules', {})).body).toEqual(DEFAULT_PASSWORD_RULES);

        // The host's partner stays one with the defaults; the strict one serves its own users only.
        await gw.store.partners.create({ id: 'plain', name: 'Plain Payroll', isDefault: true });
        await gw.store.partners.create({
          id: 'strict',
          name: 'Strict Payroll',
          domains: ['strict.example.test'],
        });
        await gw.store.passwordPolicies.set({
          partnerId: 'strict',
          rules: { minLength: 12, requireCharacterClasses: true, maxConsecutive: 2 },
          maxAgeDays: 90,
        });
        const user = await gw.addUser({ partnerId: 'strict' });
        await recover(user.username);
        const token = (await mailedLink(user)).searchParams.get('token')!;
        const rules = await anonymous.post('/api/Account/PasswordRules', { token });
        expect(rules.status).toBe(200);
        expect(rules.body).toMatchObject({ minLength: 12, requireCharacterClasses: true, maxConsecutive: 2 });

        const refused = await resetWith(token, 'aaab', 'aaac');
        expect(refused.status).toBe(400);
        expect(refused.body.errors).toEqual({
          newPassword: [
            'passwordTooShort|{"n":12}',
            'passwordCharacterClasses',
            'passwordConsecutive|{"n":2}',
          ],
          confirmPassword: ['passwordsMustMatch'],
        });
        // In the visitor's language (SPEC.md §4): the detail is German for a German browser; the map keeps codes.
        const germanBrowser = await browser(gw.app, nextIp());
        const german = await germanBrowser
          .post('/api/Account/ResetPassword', { token, newPassword: 'kurz', confirmPassword: 'kurz' })
          .set('Accept-Language', 'de');
        expect(german.headers['content-language']).toBe('de');
        expect(german.body.detail).toContain('Das Passwort muss mindestens 12 Zeichen lang sein.');

        expect((await resetWith(token, 'Good-Strict-Pass1')).status).toBe(200);
        const changed = await gw.store.users.findById(user.id);
        // The partner's maximum age: the new password expires in 90 days.
        expect(changed!.passwordExpiresAt).toBe(gw.clock.now() + 90 * 86_400_000);

        const dead = await anonymous.post('/api/Account/PasswordRules', { token });
        expect(dead.status).toBe(209);
        expect(dead.body.redirect).toBe('/error/link-expired');
      });

      it('S1 a 64-character Unicode passphrase with spaces is set and signs in exactly, never truncated', async () => {
        const user = await gw.addUser();
        await recover(user.username);
        const token = (await mailedLink(user)).searchParams.get('token')!;
        const phrase = 'Größe über Straßen — 東京の夜 and a rather long passphrase with spaces 42';
        expect([...phrase].length).toBeGreaterThanOrEqual(64);
        expect((await resetWith(token, phrase)).status).toBe(200);
        expect(await signInStatus(user, phrase)).toBe(209);
        expect(await signInStatus(user, phrase.slice(0, -1))).toBe(400);
      });

      it('Recover is throttled per source and per account', async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app, nextIp());
        for (let i = 0; i < RECOVER_LIMITS.perSource; i += 1)
          expect((await b.post('/api/Account/Recover', { username: `x${i}@example.test` })).status).toBe(200);
        const refused = await b.post('/api/Account/Recover', { username: user.username });
        expect(refused.status).toBe(400);
        expect(refused.body.errors).toEqual({ '': ['tooManyAttempts'] });

        for (let i = 0; i < RECOVER_LIMITS.perAccount + 3; i += 1) await recover(user.username);
        expect(await mailsTo(user)).toHaveLength(RECOVER_LIMITS.perAccount);
      });

      it('bad input gets the 400 errors map in the visitor’s language, never a 500', async () => {
        const b = await browser(gw.app, nextIp());
        const empty = await b.post('/api/Account/Recover', {}).set('Accept-Language', 'fr-CA');
        expect(empty.status).toBe(400);
        expect(empty.body.errors).toEqual({ username: ['required'] });
        expect(empty.headers['content-language']).toBe('fr-CA');
        for (const body of [{}, { token: 7 }, { token: 'x', newPassword: ['a'] }, null, 'text']) {
          const res = await b.post('/api/Account/ResetPassword', body);
          expect([400, 209]).toContain(res.status);
        }
      });

      // ---- the forced change of an expired password ----

      async function expiredUser() {
        return gw.addUser({ passwordExpiresAt: gw.clock.now() - 1000 });
      }

      async function atExpiredStep(user: User, returnUrl = '/account/') {
        const b = await browser(gw.app, nextIp());
        const res = await b.signIn(user.username, TEST_PASSWORD, { returnUrl });
        expect(res.status).toBe(209);
        expect(res.body.redirect).toBe(
          `/account/change-expired-password?returnUrl=${encodeURIComponent(returnUrl)}`,
        );
        return b;
      }

      it('S3 while the password is expired only ChangeExpiredPassword and PasswordRules answer; the rest restarts the sign-in', async () => {
        const user = await expiredUser();
        const b = await atExpiredStep(user);
        expect((await b.post('/api/Account/PasswordRules', {})).status).toBe(200);
        for (const call of ['Recover', 'ResetPassword', 'SelectCustomer', 'LoginWith2FA', 'SkipFido']) {
          const probe = await atExpiredStep(user);
          const res = await probe.post(`/api/Account/${call}`, { username: user.username });
          expect(res.status, call).toBe(400);
          expect(res.body, call).toEqual({});
          // The half sign-in is gone: the browser is no longer at the change step.
          expect((await probe.agent.get('/api/Account/User')).body, call).toEqual({ isAuthenticated: false });
        }
        // Without a pending sign-in nobody can call it.
        const stranger = await browser(gw.app, nextIp());
        const res = await stranger.post('/api/Account/ChangeExpiredPassword', {
          currentPassword: TEST_PASSWORD,
          newPassword: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({});
      });

      it('S2 ChangeExpiredPassword checks every rule, the current password, the list, and a new password unlike the old', async () => {
        const user = await expiredUser();
        const b = await atExpiredStep(user);
        const empty = await b.post('/api/Account/ChangeExpiredPassword', {
          currentPassword: '',
          newPassword: '',
          confirmPassword: '',
        });
        // The password sign-in verified the current password: it is not asked again (ADR 0039).
        expect(empty.body.errors).toEqual({
          newPassword: ['newPasswordRequired'],
          confirmPassword: ['required'],
        });
        const same = await b.post('/api/Account/ChangeExpiredPassword', {
          currentPassword: TEST_PASSWORD,
          newPassword: TEST_PASSWORD,
          confirmPassword: TEST_PASSWORD,
        });
        expect(same.body.errors).toEqual({ newPassword: ['passwordMustDiffer'] });
        const wrong = await b.post('/api/Account/ChangeExpiredPassword', {
          currentPassword: 'not the password',
          newPassword: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        });
        expect(wrong.body.errors).toEqual({ currentPassword: ['currentPasswordIncorrect'] });
        const common = await b.post('/api/Account/ChangeExpiredPassword', {
          currentPassword: TEST_PASSWORD,
          newPassword: 'password123',
          confirmPassword: 'password123',
        });
        expect(common.body.errors).toEqual({ newPassword: ['passwordCommon'] });
      });

      it('S3 ADR 0039 after a password sign-in the step needs no current password, and the old one may not come back', async () => {
        const user = await expiredUser();
        const b = await atExpiredStep(user, '/account/?no=current');
        const reused = await b.post('/api/Account/ChangeExpiredPassword', {
          newPassword: TEST_PASSWORD,
          confirmPassword: TEST_PASSWORD,
        });
        expect(reused.status).toBe(400);
        expect(reused.body.errors).toEqual({ newPassword: ['passwordMustDiffer'] });
        const done = await b.post('/api/Account/ChangeExpiredPassword', {
          newPassword: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        });
        expect(done.status).toBe(209);
        expect(done.body.redirect).toBe('/account/?no=current');
        await b.exchange(done.body.state);
        expect((await b.agent.get('/api/Account/User')).body).toMatchObject({ isAuthenticated: true });
        expect(await signInStatus(user, NEW_PASSWORD)).toBe(209);
      });

      it('S3 ADR 0039 a current password that is typed is still checked', async () => {
        const user = await expiredUser();
        const b = await atExpiredStep(user);
        const wrong = await b.post('/api/Account/ChangeExpiredPassword', {
          currentPassword: 'not the password',
          newPassword: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        });
        expect(wrong.status).toBe(400);
        expect(wrong.body.errors).toEqual({ currentPassword: ['currentPasswordIncorrect'] });
      });

      it('S3 ADR 0039 a sign-in that did not verify the password (one-time code) is still asked for it: 400 currentPasswordRequired', async () => {
        const user = await expiredUser();
        const b = await browser(gw.app, nextIp());
        await b.post('/api/Account/SendOTP', { username: user.username });
        await oneTimeTokenMailsSettled();
        const mail = (await gw.store.outbox.list({ to: user.email! })).find((m) =>
          m.subject?.includes('sign-in code'),
        );
        const code = /^\s*(\d{6})\s*$/m.exec(mail!.text)?.[1];
        const res = await b.post('/api/Account/LoginWithOTT?returnUrl=/account/', { code });
        expect(res.status).toBe(209);
        expect(res.body.redirect).toMatch(/^\/account\/change-expired-password/);
        await b.exchange(res.body.state);
        const without = await b.post('/api/Account/ChangeExpiredPassword', {
          newPassword: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        });
        expect(without.status).toBe(400);
        expect(without.body.errors).toEqual({ currentPassword: ['currentPasswordRequired'] });
        const empty = await b.post('/api/Account/ChangeExpiredPassword', {
          currentPassword: '',
          newPassword: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        });
        expect(empty.body.errors).toEqual({ currentPassword: ['currentPasswordRequired'] });
        const typed = await b.post('/api/Account/ChangeExpiredPassword', {
          currentPassword: TEST_PASSWORD,
          newPassword: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        });
        expect(typed.status).toBe(209);
      });

      it('S3 ADR 0039 the proof is bound to its own pending sign-in: another browser, a stale one or a changed password gets none', async () => {
        const user = await expiredUser();
        const verified = await atExpiredStep(user);
        // Another browser without a pending sign-in: the flow restarts (400 without errors), nothing changes.
        const stranger = await browser(gw.app, nextIp());
        const strangers = await stranger.post('/api/Account/ChangeExpiredPassword', {
          newPassword: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        });
        expect(strangers.status).toBe(400);
        expect(strangers.body).toEqual({});
        // The password changed after this sign-in verified it (a reset elsewhere): the old proof is void.
        gw.clock.advance(1);
        await gw.store.database.db
          .updateTable('users')
          .set({ password_changed_at: gw.clock.now() })
          .where('id', '=', user.id)
          .execute();
        const voided = await verified.post('/api/Account/ChangeExpiredPassword', {
          newPassword: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        });
        expect(voided.status).toBe(400);
        expect(voided.body.errors).toEqual({ currentPassword: ['currentPasswordRequired'] });
        // Past the pending sign-in's lifetime the step itself is gone: restart, still nothing changed.
        const other = await expiredUser();
        const late = await atExpiredStep(other);
        gw.clock.advance(PENDING_SIGN_IN_MS + 1);
        const stale = await late.post('/api/Account/ChangeExpiredPassword', {
          newPassword: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        });
        expect(stale.status).toBe(400);
        expect(stale.body).toEqual({});
        expect((await gw.store.users.findById(user.id))!.passwordExpiresAt).not.toBeNull();
        expect((await gw.store.users.findById(other.id))!.passwordExpiresAt).not.toBeNull();
      });

      it('S15 a completed change continues the sign-in to its returnUrl, signed in, and ends the user’s older sessions', async () => {
        const user = await gw.addUser();
        const older = await browser(gw.app, nextIp());
        expect((await older.signIn(user.username)).status).toBe(209);
        await gw.store.users.update(user.id, { passwordExpiresAt: gw.clock.now() - 1 });

        const b = await atExpiredStep(user, '/account/?after=change');
        expect((await b.agent.get('/api/Account/User')).body).toEqual({
          isAuthenticated: false,
          signInStep: '/account/change-expired-password',
        });
        const done = await b.post('/api/Account/ChangeExpiredPassword', {
          currentPassword: TEST_PASSWORD,
          newPassword: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        });
        expect(done.status).toBe(209);
        expect(done.body.redirect).toBe('/account/?after=change');
        await b.exchange(done.body.state);
        expect((await b.agent.get('/api/Account/User')).body).toMatchObject({ isAuthenticated: true });
        expect((await older.agent.get('/api/Account/User')).body).toMatchObject({ isAuthenticated: false });
        expect(await signInStatus(user, NEW_PASSWORD)).toBe(209);
        const changed = await gw.store.users.findById(user.id);
        expect(changed!.passwordExpiresAt).toBeNull();
      });

      it('the partner’s maximum password age sends an older password to the change step, and a new one lives that long', async () => {
        const partnerId = `aged-${nextIp().replaceAll('.', '-')}`;
        await gw.store.partners.create({ id: partnerId, name: 'Aged Partner' });
        await gw.store.passwordPolicies.set({ partnerId, rules: {}, maxAgeDays: 30 });
        const user = await gw.addUser({ partnerId });
        const signInRedirect = async (password = TEST_PASSWORD) => {
          const b = await browser(gw.app, nextIp());
          return (await b.signIn(user.username, password, { returnUrl: '/account/' })).body
            .redirect as string;
        };
        const setAge = (days: number) =>
          gw.store.database.db
            .updateTable('users')
            .set({ password_changed_at: gw.clock.now() - days * 86_400_000 })
            .where('id', '=', user.id)
            .execute();

        // A password younger than the maximum age signs in; one at or past it goes to the change step.
        await setAge(29);
        expect(await signInRedirect()).not.toMatch(/change-expired-password/);
        await setAge(30);
        expect(await signInRedirect()).toMatch(/^\/account\/change-expired-password/);

        // 0 = never: the same old password signs in again.
        await gw.store.passwordPolicies.set({ partnerId, rules: {}, maxAgeDays: 0 });
        expect(await signInRedirect()).not.toMatch(/change-expired-password/);

        // With the policy back, the change sets a new password that expires after the maximum age.
        await gw.store.passwordPolicies.set({ partnerId, rules: {}, maxAgeDays: 30 });
        const b = await atExpiredStep(user);
        const done = await b.post('/api/Account/ChangeExpiredPassword', {
          currentPassword: TEST_PASSWORD,
          newPassword: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        });
        expect(done.status).toBe(209);
        expect(done.body.redirect).toBe('/account/');
        const changed = await gw.store.users.findById(user.id);
        expect(changed!.passwordExpiresAt).toBe(gw.clock.now() + 30 * 86_400_000);
        expect(await signInRedirect(NEW_PASSWORD)).not.toMatch(/change-expired-password/);
      });

      it('S16 the reset page, which carries the token, is sent with Referrer-Policy: no-referrer', async () => {
        const res = await request(gw.app).get('/account/reset-password?token=abc');
        expect(res.status).toBe(200);
        expect(res.headers['referrer-policy']).toBe('no-referrer');
      });

      it.each([
        '/account/reset-password?token=abc',
        '/account/reset-password?Token=abc',
        '/account/login/ott?token=abc',
        '/account/redeem-recoverycodes?id=abc',
      ])('%s carries a secret: Cache-Control no-store (issue 39)', async (url) => {
        const res = await request(gw.app).get(url);
        expect(res.status).toBe(200);
        expect(res.headers['cache-control']).toBe('no-store');
      });

      it('the answers that take a reset token or a one-time code are no-store, the failures too (issue 39)', async () => {
        const b = await browser(gw.app);
        for (const [call, body] of [
          ['/api/Account/ResetPassword', { token: 'abc', newPassword: 'x', confirmPassword: 'x' }],
          ['/api/Account/LoginWithOTT', { token: 'abc' }],
          ['/api/Account/PasswordRules?token=abc', {}],
        ] as const) {
          const res = await b.post(call, body);
          expect(res.headers['cache-control'], call).toBe('no-store');
        }
      });
    },
  );
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `S15 a reset revokes refresh tokens (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      let issuer: string;
      const CLIENT_ID = 'portal-recovery';
      const REDIRECT_URI = 'http://localhost:4000/callback';
      beforeAll(async () => {
        gw = await startTestGateway({ backend: backend.name, oidc: true, realClock: true });
        issuer = gw.url!;
        await gw.store.clients.create({ clientId: CLIENT_ID, name: 'Portal', redirectUris: [REDIRECT_URI] });
      });
      afterAll(async () => {
        await gw?.close();
      });

      it('S15 the refresh token issued before a reset is refused after it', async () => {
        const user = await gw.addUser();
        const site = new TestBrowser(issuer);
        const pkce = pkcePair();
        const authorize = new URL('/connect/authorize', issuer);
        authorize.search = new URLSearchParams({
          client_id: CLIENT_ID,
          redirect_uri: REDIRECT_URI,
          response_type: 'code',
          scope: 'openid offline_access',
          prompt: 'consent',
          state: 's',
          nonce: 'n',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
        }).toString();
        const toLogin = await site.follow(authorize.href, ['/account/login']);
        const returnUrl = new URL(toLogin.url).searchParams.get('returnUrl')!;
        const anti = (await (await site.request('/api/Account/Antiforgery')).json()) as { token: string };
        const post = (path: string, body: unknown, token?: string) =>
          site.request(path, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              ...(token ? { 'x-csrf-token-value': token } : {}),
            },
            body: JSON.stringify(body),
          });
        const login = await post(
          '/api/Account/Login',
          { username: user.username, password: TEST_PASSWORD, returnUrl },
          anti.token,
        );
        const step = (await login.json()) as { redirect: string; state: string };
        await post('/api/Account/Exchange', { state: step.state });
        const back = await site.follow(step.redirect);
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
        ).json()) as { refresh_token?: string };
        expect(tokens.refresh_token).toBeTruthy();

        const other = await browser(gw.app);
        await other.post('/api/Account/Recover', { username: user.username }).expect(200);
        await recoveryMailsSettled();
        const mail = (await gw.store.outbox.list({ to: user.email! }))[0]!;
        const token = /token=([\w-]+)/.exec(mail.text)![1]!;
        await other
          .post('/api/Account/ResetPassword', {
            token,
            newPassword: NEW_PASSWORD,
            confirmPassword: NEW_PASSWORD,
          })
          .expect(200);

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
      });
    },
  );
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `S11 Recover timing (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      beforeAll(async () => {
        gw = await startTestGateway({ backend: backend.name, realClock: true });
      });
      afterAll(async () => {
        await gw?.close();
      });

      const median = (values: number[]) => {
        const sorted = [...values].sort((a, b) => a - b);
        return sorted[Math.floor(sorted.length / 2)]!;
      };

      it('S11 the answer for an existing and an unknown account cannot be told apart by time (200 samples each)', async () => {
        // A different existing account each time, so every known sample does the whole mail work (no per-account
        // throttle saving it) — after the answer, where it cannot show.
        const users = await Promise.all(Array.from({ length: 200 }, () => gw.addUser()));
        const b = await browser(gw.app);
        const known: number[] = [];
        const unknown: number[] = [];
        for (let i = 0; i < 400; i += 1) {
          const exists = i % 2 === 0;
          const started = process.hrtime.bigint();
          const res = await b
            .post('/api/Account/Recover', {
              username: exists ? users[i / 2]!.username : `nobody-${i}@example.test`,
            })
            .set('X-Forwarded-For', nextIp());
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          expect(res.status).toBe(200);
          (exists ? known : unknown).push(ms);
          // The mail work of the previous call runs after its answer; let it finish so it does not land in the
          // next sample of either kind.
          await recoveryMailsSettled();
        }
        expect(Math.abs(median(known) - median(unknown))).toBeLessThan(5);
      });

      it('S11 the answer goes out before any account-dependent work: a mail server that hangs does not hold it', async () => {
        let release: () => void = () => undefined;
        const hanging = new Promise<void>((resolve) => (release = resolve));
        const sent: string[] = [];
        const slow = await startTestGateway({
          backend: backend.name,
          overrides: {
            mailer: {
              send: async (message) => {
                await hanging;
                sent.push(message.to);
              },
            },
          },
        });
        try {
          const user = await slow.addUser();
          const b = await browser(slow.app);
          const res = await b.post('/api/Account/Recover', { username: user.username });
          expect(res.status).toBe(200);
          expect(sent).toEqual([]);
          release();
          await recoveryMailsSettled();
          expect(sent).toEqual([user.email]);
        } finally {
          release();
          await slow.close();
        }
      });
    },
  );
}
