/**
 * One-time-token sign-in (issue 15, ADR 0019): SendOTP mails a code and a link, LoginWithOTT signs in with either,
 * once, within ten minutes, in the browser that asked, throttled, and the sign-in goes on through its steps.
 */
import { Secret, TOTP } from 'otpauth';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../cli/admin.js';
import {
  OTT_CODE_ATTEMPTS,
  OTT_REQUEST_LIMITS,
  OTT_TTL_MS,
  oneTimeTokenMailsSettled,
} from '../identity/one-time-token/one-time-sign-in.service.js';
import { sha256 } from '../infra/crypto/tokens.js';
import type { User } from '../store/user.repository.js';
import {
  BACKENDS,
  browser,
  sessionCookieOf,
  startTestGateway,
  type TestGateway,
} from '../testing/test-gateway.js';

const PUBLIC_URL = 'https://id.example.test';
const TOTP_SECRET = 'JBSWY3DPEHPK3PXP';

let ipCounter = 0;
/** A fresh source address per browser, so the per-source counters of one check do not reach the next. */
function nextIp(): string {
  ipCounter += 1;
  return `203.0.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

type Browser = Awaited<ReturnType<typeof browser>>;

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `one-time-token sign-in (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      beforeAll(async () => {
        // Loose sign-in throttle: these checks are about the tokens; the throttle's own check tightens it.
        gw = await startTestGateway({
          backend: backend.name,
          config: { publicUrl: PUBLIC_URL },
          throttleLimits: { perAccountSource: 1000, perAccount: 1000, perSource: 1000, freeFailures: 1000 },
        });
      });
      afterAll(async () => {
        await gw.close();
      });

      async function sendOtp(b: Browser, username: string, extra: Record<string, unknown> = {}) {
        const res = await b.post('/api/Account/SendOTP', { username, ...extra });
        await oneTimeTokenMailsSettled();
        return res;
      }

      /** The newest sign-in mail to the user: its code and its link, read as the user would. */
      async function mailed(user: User): Promise<{ code: string; link: URL; token: string; count: number }> {
        const mails = (await gw.store.outbox.list({ to: user.email! })).filter((m) =>
          m.subject?.includes('sign-in code'),
        );
        expect(mails.length).toBeGreaterThan(0);
        // The outbox lists the newest first.
        const mail = mails[0]!;
        const code = /^\s*(\d{6})\s*$/m.exec(mail.text)?.[1];
        const href = /https?:\/\/\S+\/account\/login\/ott\?token=[\w-]+/.exec(mail.text)?.[0];
        expect(code).toBeDefined();
        expect(href).toBeDefined();
        const link = new URL(href!);
        return { code: code!, link, token: link.searchParams.get('token')!, count: mails.length };
      }

      const login = (b: Browser, body: Record<string, unknown>, query = '') =>
        b.post(`/api/Account/LoginWithOTT${query}`, body);
      const me = async (b: Browser): Promise<Record<string, unknown>> =>
        (await b.agent.get('/api/Account/User').expect(200)).body as Record<string, unknown>;

      it('S10 SendOTP answers the same status, body and headers whether the account exists or not', async () => {
        const user = await gw.addUser();
        const known = await sendOtp(await browser(gw.app, nextIp()), user.username);
        const unknown = await sendOtp(await browser(gw.app, nextIp()), 'nobody-at-all@example.test');
        expect(known.status).toBe(200);
        expect(known.body).toEqual({ accepted: true, codeLength: 6, expiresInMinutes: 10 });
        expect(unknown.status).toBe(known.status);
        expect(unknown.body).toEqual(known.body);
        const comparable = (headers: Record<string, string>) => {
          const { date: _d, 'x-request-id': _r, ...rest } = headers;
          return {
            ...rest,
            'content-security-policy': rest['content-security-policy']?.replace(/nonce-[^']+/g, 'nonce'),
          };
        };
        expect(comparable(unknown.headers)).toEqual(comparable(known.headers));
        expect((await mailed(user)).count).toBe(1);
      });

      it('S11 the answer does not wait for the account, the token or the mail: a mail that never goes out does not hold it', async () => {
        let release: () => void = () => undefined;
        const gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        const sent: string[] = [];
        const slow = await startTestGateway({
          backend: backend.name,
          overrides: {
            mailer: {
              send: async (message) => {
                sent.push(message.to);
                await gate;
              },
            },
          },
        });
        try {
          const user = await slow.addUser();
          const b = await browser(slow.app, nextIp());
          // Were the mail awaited before the answer, this would hang until the test's timeout.
          const res = await b.post('/api/Account/SendOTP', { username: user.username });
          expect(res.status).toBe(200);
          release();
          await oneTimeTokenMailsSettled();
          expect(sent).toEqual([user.email]);
        } finally {
          release();
          await slow.close();
        }
      });

      it('the mail carries a 6-digit code and a 256-bit link on PUBLIC_URL, kept only as keyed hashes', async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app, nextIp());
        await b
          .post('/api/Account/SendOTP', { username: user.email })
          .set('X-Forwarded-Host', 'evil.example');
        await oneTimeTokenMailsSettled();
        const { code, link, token } = await mailed(user);
        expect(link.origin).toBe(PUBLIC_URL);
        expect(link.pathname).toBe('/account/login/ott');
        expect(Buffer.from(token, 'base64url')).toHaveLength(32);
        expect(code).toMatch(/^\d{6}$/);
        const rows = await gw.store.database.db
          .selectFrom('one_time_tokens')
          .selectAll()
          .where('user_id', '=', user.id)
          .execute();
        expect(rows).toHaveLength(1);
        expect(rows[0]!.purpose).toBe('sign-in');
        expect(rows[0]!.token_hash).toBe(sha256(token));
        expect(rows[0]!.binding_hash).toMatch(/^[\w-]{43}$/);
        const stored = JSON.stringify(rows);
        expect(stored).not.toContain(token);
        expect(stored).not.toContain(`"${code}"`);
        expect(stored).not.toContain(sha256(code));
        // Expiry ≤ 10 minutes.
        expect(Number(rows[0]!.expires_at) - Number(rows[0]!.created_at)).toBe(10 * 60_000);
      });

      it('the typed code signs in once, under a new session id (S24), and the token is spent', async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app, nextIp());
        await sendOtp(b, user.username);
        const { code, token } = await mailed(user);
        const res = await login(b, { code: `${code.slice(0, 3)} ${code.slice(3)}` }, '?returnUrl=/account/');
        expect(res.body).toMatchObject({ redirect: '/account/' });
        expect(res.status).toBe(209);
        // A new session cookie comes with the answer (S24; that the old one is dead: the last check below).
        expect(sessionCookieOf(res)).toBeDefined();
        await b.exchange(res.body.state as string);
        expect(await me(b)).toMatchObject({ isAuthenticated: true });
        const audit = await gw.store.database.db
          .selectFrom('audit_events')
          .select(['kind'])
          .where('user_id', '=', user.id)
          .execute();
        expect(audit.map((a) => a.kind)).toContain('sign-in.one-time-token');

        // Once: the same code again, and the link of the same mail, are refused.
        const again = await browser(gw.app, nextIp());
        expect((await login(again, { token })).body.errors).toEqual({ '': ['oneTimeLinkInvalid'] });
        const reused = await login(b, { code });
        expect(reused.status).toBe(400);
        expect(reused.body.errors).toEqual({ code: ['invalidCode'] });
      });

      it('the link signs in once in the browser that asked, with the returnUrl SendOTP was given', async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app, nextIp());
        await sendOtp(b, user.username, { returnUrl: '/account/' });
        const { token, code } = await mailed(user);
        const res = await login(b, { token });
        expect(res.status).toBe(209);
        expect(res.body.redirect).toBe('/account/');
        await b.exchange(res.body.state as string);
        expect(await me(b)).toMatchObject({ isAuthenticated: true });
        const reuse = await login(await browser(gw.app, nextIp()), { token });
        expect(reuse.status).toBe(400);
        expect(reuse.body.errors).toEqual({ '': ['oneTimeLinkInvalid'] });
        // The code of the same mail went with it.
        const c = await browser(gw.app, nextIp());
        expect((await login(c, { code })).body.errors).toEqual({ code: ['invalidCode'] });
      });

      it('a returnUrl that is not safe is not followed (S31)', async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app, nextIp());
        await sendOtp(b, user.username, { returnUrl: '//evil.example/x' });
        const res = await login(b, { token: (await mailed(user)).token });
        expect(res.status).toBe(209);
        expect(res.body.redirect).toBe('/');
      });

      it('the code and the link expire after ten minutes', async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app, nextIp());
        await sendOtp(b, user.username);
        const { code, token } = await mailed(user);
        gw.clock.advance(OTT_TTL_MS + 1);
        expect((await login(b, { code })).body.errors).toEqual({ code: ['invalidCode'] });
        expect((await login(b, { token })).body.errors).toEqual({ '': ['oneTimeLinkInvalid'] });
        expect((await me(b)).isAuthenticated).toBe(false);
      });

      it('bound to the browser that asked: the code finds nothing elsewhere, the link is refused elsewhere and still works there', async () => {
        const user = await gw.addUser();
        const asker = await browser(gw.app, nextIp());
        await sendOtp(asker, user.username);
        const { code, token } = await mailed(user);
        const other = await browser(gw.app, nextIp());
        expect((await login(other, { code })).body.errors).toEqual({ code: ['invalidCode'] });
        const elsewhere = await login(other, { token });
        expect(elsewhere.status).toBe(400);
        expect(elsewhere.body.errors).toEqual({ '': ['oneTimeLinkOtherBrowser'] });
        expect((await me(other)).isAuthenticated).toBe(false);
        // Neither spent the token: the browser that asked still signs in with it.
        const res = await login(asker, { code });
        expect(res.status).toBe(209);
      });

      it('a newer request from the same browser replaces its older code; other browsers keep theirs', async () => {
        const user = await gw.addUser();
        const first = await browser(gw.app, nextIp());
        const second = await browser(gw.app, nextIp());
        await sendOtp(first, user.username);
        const older = await mailed(user);
        await sendOtp(second, user.username);
        const fromSecond = await mailed(user);
        await sendOtp(first, user.username);
        const newer = await mailed(user);
        expect((await login(first, { token: older.token })).body.errors).toEqual({
          '': ['oneTimeLinkInvalid'],
        });
        expect((await login(second, { code: fromSecond.code })).status).toBe(209);
        expect((await login(first, { code: newer.code })).status).toBe(209);
      });

      it(`S6 a token dies after ${OTT_CODE_ATTEMPTS} wrong codes, even for the right one; parallel guesses spend no more`, async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app, nextIp());
        await sendOtp(b, user.username);
        const { code } = await mailed(user);
        const wrong = code === '000000' ? '000001' : '000000';
        const answers = await Promise.all(
          Array.from({ length: OTT_CODE_ATTEMPTS + 3 }, () => login(b, { code: wrong })),
        );
        expect(answers.every((a) => a.status === 400)).toBe(true);
        const row = await gw.store.database.db
          .selectFrom('one_time_tokens')
          .select(['attempts'])
          .where('user_id', '=', user.id)
          .executeTakeFirstOrThrow();
        expect(Number(row.attempts)).toBe(OTT_CODE_ATTEMPTS);
        const right = await login(b, { code });
        expect(right.status).toBe(400);
        expect((await me(b)).isAuthenticated).toBe(false);
      });

      it('S42 one link used by ten parallel requests signs in exactly once', async () => {
        const user = await gw.addUser();
        const b = await browser(gw.app, nextIp());
        await sendOtp(b, user.username);
        const { token } = await mailed(user);
        const answers = await Promise.all(Array.from({ length: 10 }, () => login(b, { token })));
        expect(answers.filter((a) => a.status === 209)).toHaveLength(1);
      });

      it('S6 SendOTP is throttled per source, and mails an account at most its limit per hour', async () => {
        const user = await gw.addUser();
        const ip = nextIp();
        const statuses: number[] = [];
        for (let i = 0; i < OTT_REQUEST_LIMITS.perSource + 1; i += 1) {
          statuses.push((await sendOtp(await browser(gw.app, ip), `someone-${i}`)).status);
        }
        expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
        const refused = await sendOtp(await browser(gw.app, ip), user.username);
        expect(refused.status).toBe(400);
        expect(refused.body.errors).toEqual({ '': ['tooManyAttempts'] });
        expect(refused.headers['retry-after']).toBeDefined();

        for (let i = 0; i < OTT_REQUEST_LIMITS.perAccount + 2; i += 1) {
          expect((await sendOtp(await browser(gw.app, nextIp()), user.username)).status).toBe(200);
        }
        const mails = (await gw.store.outbox.list({ to: user.email! })).filter((m) =>
          m.subject?.includes('sign-in code'),
        );
        expect(mails).toHaveLength(OTT_REQUEST_LIMITS.perAccount);
      });

      it('the second factor still applies after a one-time token, and then the sign-in completes', async () => {
        const user = await gw.addUser();
        await gw.store.secondFactors.enableAuthenticator(user.id, gw.store.secrets.encrypt(TOTP_SECRET), 0);
        const b = await browser(gw.app, nextIp());
        await sendOtp(b, user.username, { returnUrl: '/account/' });
        const res = await login(b, { code: (await mailed(user)).code });
        expect(res.status).toBe(209);
        expect(res.body.redirect).toMatch(/^\/account\/login\/twofactor\?returnUrl=%2Faccount%2F/);
        await b.exchange(res.body.state as string);
        expect(await me(b)).toEqual({ isAuthenticated: false, signInStep: '/account/login/twofactor' });
        const totp = new TOTP({
          algorithm: 'SHA1',
          digits: 6,
          period: 30,
          secret: Secret.fromBase32(TOTP_SECRET),
        });
        const done = await b.post('/api/Account/LoginWith2FA', {
          method: 'authenticator',
          code: totp.generate({ timestamp: gw.clock.now() }),
        });
        expect(done.status).toBe(209);
        expect(done.body.redirect).toBe('/account/');
        await b.exchange(done.body.state as string);
        expect(await me(b)).toMatchObject({ isAuthenticated: true });
      });

      it('S6 LoginWithOTT meets the sign-in throttle: wrong codes from one browser are delayed, then refused', async () => {
        const tight = await startTestGateway({
          backend: backend.name,
          throttleLimits: { perAccountSource: 3, perSource: 1000, perAccount: 1000, freeFailures: 1000 },
        });
        try {
          const b = await browser(tight.app, nextIp());
          const answers: (string | undefined)[] = [];
          for (let i = 0; i < 4; i += 1)
            answers.push(
              Object.values((await login(b, { code: '123456' })).body.errors ?? {}).flat()[0] as string,
            );
          expect(answers).toEqual(['invalidCode', 'invalidCode', 'invalidCode', 'tooManyAttempts']);
        } finally {
          await tight.close();
        }
      });

      it('SendOTP without a username is still the 2FA step’s SMS call, refused outside that step', async () => {
        const b = await browser(gw.app, nextIp());
        const res = await b.post('/api/Account/SendOTP', {});
        expect(res.status).toBe(400);
        expect(res.body).toEqual({});
      });

      it('bad input is answered with the errors map', async () => {
        const b = await browser(gw.app, nextIp());
        expect((await login(b, {})).body.errors).toEqual({ code: ['required'] });
        expect((await login(b, { code: 'abc' })).body.errors).toEqual({ code: ['invalidCode'] });
        expect((await login(b, { code: '123456', token: 'x' })).status).toBe(400);
        expect((await b.post('/api/Account/SendOTP', { username: '' })).body.errors).toEqual({
          username: ['required'],
        });
        // Without the anti-forgery header nothing happens (S30).
        const forged = await b.agent.post('/api/Account/SendOTP').send({ username: 'x' });
        expect(forged.status).toBe(400);
      });

      it('admin ott issue prints a link any browser can use once; unknown users and bad minutes are refused', async () => {
        const user = await gw.addUser();
        const lines: string[] = [];
        const admin = (...args: string[]) =>
          runAdminCommand(gw.store, args, (line) => lines.push(line), {}, PUBLIC_URL);
        await admin('ott', 'issue', '--username', user.username, '--minutes', '5');
        const link = new URL(lines[0]!);
        expect(link.origin).toBe(PUBLIC_URL);
        expect(link.pathname).toBe('/account/login/ott');
        const token = link.searchParams.get('token')!;
        expect(Buffer.from(token, 'base64url')).toHaveLength(32);
        const row = await gw.store.database.db
          .selectFrom('one_time_tokens')
          .selectAll()
          .where('token_hash', '=', sha256(token))
          .executeTakeFirstOrThrow();
        expect(row.binding_hash).toBeNull();
        expect(Number(row.expires_at) - Number(row.created_at)).toBe(5 * 60_000);

        const anyBrowser = await browser(gw.app, nextIp());
        const res = await login(anyBrowser, { token });
        expect(res.status).toBe(209);
        expect((await login(await browser(gw.app, nextIp()), { token })).status).toBe(400);

        await expect(admin('ott', 'issue', '--username', 'nobody-here')).rejects.toThrow(
          'no user "nobody-here"',
        );
        for (const minutes of ['0', '11', 'ten', '2.5'])
          await expect(
            admin('ott', 'issue', '--username', user.username, '--minutes', minutes),
          ).rejects.toThrow(/--minutes must be a whole number from 1 to 10/);
      });

      it('the old session cookie is dead after a one-time-token sign-in (S24)', async () => {
        const user = await gw.addUser();
        const first = await request(gw.app).get('/api/Account/Antiforgery').expect(200);
        const jar = ((first.headers['set-cookie'] as unknown as string[]) ?? [])
          .map((c) => c.split(';')[0])
          .join('; ');
        const csrf = (first.body as { token: string }).token;
        const call = (url: string, body: unknown) =>
          request(gw.app)
            .post(url)
            .set('cookie', jar)
            .set('x-csrf-token-value', csrf)
            .send(body as object);
        await call('/api/Account/SendOTP', { username: user.username });
        await oneTimeTokenMailsSettled();
        const res = await call('/api/Account/LoginWithOTT', { code: (await mailed(user)).code });
        expect(res.status).toBe(209);
        expect(sessionCookieOf(res)).not.toBe(sessionCookieOf(first));
        const withOld = await request(gw.app).get('/api/Account/User').set('cookie', jar).expect(200);
        expect(withOld.body.isAuthenticated).toBe(false);
      });
    },
  );
}
