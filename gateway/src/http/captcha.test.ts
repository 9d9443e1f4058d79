import type { Challenge } from 'altcha-lib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ALTCHA_CHALLENGE_TTL_MS } from '../infra/captcha/altcha-challenges.js';
import { altchaChallengeFor as challengeFor, solveAltcha as solve } from '../testing/altcha-solver.js';
import { startSiteverifyServer, type SiteverifyServer } from '../testing/siteverify-server.js';
import { CAPTCHA_RISK } from '../identity/captcha/captcha.service.js';
import {
  BACKENDS,
  browser,
  startTestGateway,
  TEST_PASSWORD,
  type TestGateway,
} from '../testing/test-gateway.js';

type Browser = Awaited<ReturnType<typeof browser>>;

let ipCounter = 0;
/** A fresh source address per browser, so one test's counters do not decide another's. */
function nextIp(): string {
  ipCounter += 1;
  return `203.0.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

/** The form-level codes of a 400 (the empty key of the errors map). */
function formCodes(res: { status: number; body: unknown }): string[] | number {
  if (res.status !== 400) return res.status;
  return (res.body as { errors?: Record<string, string[]> }).errors?.[''] ?? [];
}

function verify(b: Browser, version: number, token: string, action = 'login') {
  return b.post('/api/Account/VerifyCaptcha', { version, token, action });
}

async function loginView(b: Browser) {
  const res = await b.agent.get('/api/Account/LoginView?returnUrl=/').expect(200);
  return res.body as { captchaRequired?: boolean; captcha?: { version: number; siteKey?: string } };
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `captcha (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      let siteverify: SiteverifyServer;
      const SECRET = '6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe';

      beforeAll(async () => {
        siteverify = await startSiteverifyServer(SECRET);
        gw = await startTestGateway({
          backend: backend.name,
          config: { recaptchaVerifyUrl: siteverify.verifyUrl },
          // The production default for partners without settings: the proof-of-work on risk.
          overrides: { captchaFallback: {} },
        });
      });
      afterAll(async () => {
        await gw.close();
        await siteverify.close();
      });

      /** A browser whose account+source counter holds the failures that make a challenge due. */
      async function riskyBrowser(username: string): Promise<Browser> {
        const b = await browser(gw.app, nextIp());
        for (let i = 0; i < CAPTCHA_RISK.ownFailures; i += 1)
          expect(formCodes(await b.signIn(username, 'wrong password'))).toEqual(['invalidCredentials']);
        return b;
      }

      describe('self-hosted proof-of-work (version 1, the default)', () => {
        it('after repeated wrong passwords the next sign-in needs a solved challenge, then goes through', async () => {
          const user = await gw.addUser();
          const b = await browser(gw.app, nextIp());
          expect(await loginView(b)).toMatchObject({ captchaRequired: false, captcha: { version: 1 } });
          for (let i = 0; i < CAPTCHA_RISK.ownFailures; i += 1)
            await b.signIn(user.username, 'wrong password');
          expect((await loginView(b)).captchaRequired).toBe(true);
          // Even the right password is not checked without a solved challenge.
          expect(formCodes(await b.signIn(user.username))).toEqual(['captchaRequired']);

          const token = await solve(await challengeFor(b, 'login'));
          const verified = await verify(b, 1, token);
          expect(verified.status).toBe(200);
          expect(verified.body).toEqual({ verified: true });
          expect((await b.signIn(user.username)).status).toBe(209);
        });

        it('S9: a solved challenge is verified once; its pass lets exactly one call through', async () => {
          const user = await gw.addUser();
          const b = await riskyBrowser(user.username);
          const token = await solve(await challengeFor(b, 'login'));
          expect((await verify(b, 1, token)).status).toBe(200);
          expect(formCodes(await verify(b, 1, token))).toEqual(['captchaInvalid']);
          expect(formCodes(await b.signIn(user.username, 'wrong password'))).toEqual(['invalidCredentials']);
          expect(formCodes(await b.signIn(user.username, 'wrong password'))).toEqual(['captchaRequired']);
        });

        it('S9: parallel hand-ins of one solution: exactly one is accepted', async () => {
          const user = await gw.addUser();
          const b = await riskyBrowser(user.username);
          const token = await solve(await challengeFor(b, 'login'));
          const answers = await Promise.all(Array.from({ length: 5 }, () => verify(b, 1, token)));
          expect(answers.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400]);
        });

        it('S9: a challenge solved for another action is refused', async () => {
          const user = await gw.addUser();
          const b = await riskyBrowser(user.username);
          const token = await solve(await challengeFor(b, 'recover'));
          expect(formCodes(await verify(b, 1, token, 'login'))).toEqual(['captchaInvalid']);
          expect(formCodes(await b.signIn(user.username))).toEqual(['captchaRequired']);
        });

        it('S9: a challenge solved in another session is refused', async () => {
          const user = await gw.addUser();
          const b = await riskyBrowser(user.username);
          const other = await browser(gw.app, nextIp());
          const token = await solve(await challengeFor(other, 'login'));
          expect(formCodes(await verify(b, 1, token))).toEqual(['captchaInvalid']);
        });

        it('S9: an expired challenge is refused', async () => {
          const user = await gw.addUser();
          const b = await riskyBrowser(user.username);
          const token = await solve(await challengeFor(b, 'login'));
          gw.clock.advance(ALTCHA_CHALLENGE_TTL_MS + 1_000);
          expect(formCodes(await verify(b, 1, token))).toEqual(['captchaInvalid']);
        });

        it('S9: a forged or tampered payload is refused, never a 500', async () => {
          const user = await gw.addUser();
          const b = await riskyBrowser(user.username);
          const challenge = await challengeFor(b, 'login');
          const solved = JSON.parse(Buffer.from(await solve(challenge), 'base64').toString()) as {
            challenge: Challenge;
          };
          // Another action written into the signed data.
          solved.challenge.parameters.data = { ...solved.challenge.parameters.data, action: 'recover' };
          const tampered = Buffer.from(JSON.stringify(solved)).toString('base64');
          expect(formCodes(await verify(b, 1, tampered, 'recover'))).toEqual(['captchaInvalid']);
          for (const token of ['x', Buffer.from('{"challenge":1}').toString('base64'), 'e30='])
            expect(formCodes(await verify(b, 1, token))).toEqual(['captchaInvalid']);
          const badVersion = await b.post('/api/Account/VerifyCaptcha', {
            version: 7,
            token: 'x',
            action: 'login',
          });
          expect(badVersion.status).toBe(400);
          expect((badVersion.body as { errors: Record<string, string[]> }).errors.version).toEqual([
            'invalidValue',
          ]);
        });

        it('the partner provider only: a reCAPTCHA token is refused where the proof-of-work is configured', async () => {
          const user = await gw.addUser();
          const b = await riskyBrowser(user.username);
          const token = siteverify.token({ hostname: '127.0.0.1' });
          expect(formCodes(await verify(b, 2, token))).toEqual(['captchaInvalid']);
        });

        it('Recover: a few requests per source go through, then a challenge is due; solved, it goes on', async () => {
          const b = await browser(gw.app, nextIp());
          for (let i = 0; i < CAPTCHA_RISK.freeRequests; i += 1) {
            const res = await b.post('/api/Account/Recover', { username: `nobody-${i}@example.test` });
            expect(res.status).toBe(200);
          }
          const refused = await b.post('/api/Account/Recover', { username: 'nobody@example.test' });
          expect(formCodes(refused)).toEqual(['captchaRequired']);
          const loginToken = await solve(await challengeFor(b, 'login'));
          expect((await verify(b, 1, loginToken)).status).toBe(200);
          // A pass for Login is no pass for Recover.
          expect(
            formCodes(await b.post('/api/Account/Recover', { username: 'nobody@example.test' })),
          ).toEqual(['captchaRequired']);
          const token = await solve(await challengeFor(b, 'recover'));
          expect((await verify(b, 1, token, 'recover')).status).toBe(200);
          const res = await b.post('/api/Account/Recover', { username: 'nobody@example.test' });
          expect(res.status).toBe(200);
          expect(res.body).toEqual({ accepted: true });
        });

        it('S9 one guard for every guarded form: a signed-out cookie with its old token meets it on Recover too, answered "session timed out", past the free requests as before them (issue 39)', async () => {
          const user = await gw.addUser({ email: `dead-session-${nextIp()}@example.test` });
          const ip = nextIp();
          // A signed-in session's cookies and token, kept by whoever used that browser before it signed out.
          const agent = request.agent(gw.app).set('X-Forwarded-For', ip);
          const first = await agent.get('/api/Account/Antiforgery').expect(200);
          const login = await agent
            .post('/api/Account/Login')
            .set('x-csrf-token-value', (first.body as { token: string }).token)
            .send({ username: user.username, password: TEST_PASSWORD, rememberMe: false });
          expect(login.status).toBe(209);
          const exchanged = await agent
            .post('/api/Account/Exchange')
            .set('x-csrf-token-value', (first.body as { token: string }).token)
            .send({ state: (login.body as { state: string }).state })
            .expect(200);
          const deadToken = (exchanged.body as { token: string }).token;
          const cookies = (login.headers['set-cookie'] as unknown as string[])
            .concat((exchanged.headers['set-cookie'] as unknown as string[] | undefined) ?? [])
            .map((c) => c.split(';')[0]!);
          const deadCookie = [...new Map(cookies.map((c) => [c.split('=')[0], c])).values()].join('; ');
          const out = await agent.post('/api/Account/Logout').set('x-csrf-token-value', deadToken).send({});
          expect([200, 209]).toContain(out.status);
          for (let i = 0; i < CAPTCHA_RISK.freeRequests + 2; i += 1) {
            const res = await request(gw.app)
              .post('/api/Account/Recover')
              .set('X-Forwarded-For', ip)
              .set('Cookie', deadCookie)
              .set('x-csrf-token-value', deadToken)
              .send({ username: user.username });
            expect(res.status).toBe(400);
            expect(res.body).toEqual({});
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
          expect(await gw.store.audit.list({ userId: user.id, kinds: ['password.recovery-mailed'] })).toEqual(
            [],
          );
        });

        it('SendOTP (one-time-token page): a few requests per source go through, then a challenge is due; solved, it goes on', async () => {
          const b = await browser(gw.app, nextIp());
          for (let i = 0; i < CAPTCHA_RISK.freeRequests; i += 1) {
            const res = await b.post('/api/Account/SendOTP', { username: `nobody-${i}@example.test` });
            expect(res.status).toBe(200);
          }
          const refused = await b.post('/api/Account/SendOTP', { username: 'nobody@example.test' });
          expect(formCodes(refused)).toEqual(['captchaRequired']);
          // A pass for Recover is no pass for SendOTP.
          const recoverToken = await solve(await challengeFor(b, 'recover'));
          expect((await verify(b, 1, recoverToken, 'recover')).status).toBe(200);
          expect(
            formCodes(await b.post('/api/Account/SendOTP', { username: 'nobody@example.test' })),
          ).toEqual(['captchaRequired']);
          const token = await solve(await challengeFor(b, 'sendOtp'));
          expect((await verify(b, 1, token, 'sendOtp')).status).toBe(200);
          const res = await b.post('/api/Account/SendOTP', { username: 'nobody@example.test' });
          expect(res.status).toBe(200);
          expect(res.body).toMatchObject({ accepted: true });
        });

        it('one account lookup per Login: the sign-in reads the captcha check’s answer', async () => {
          const user = await gw.addUser();
          const b = await browser(gw.app, nextIp());
          const lookups = vi.spyOn(gw.store.users, 'findByLogin');
          try {
            const res = await b.signIn(user.username, 'wrong password');
            expect(formCodes(res)).toEqual(['invalidCredentials']);
            expect(lookups).toHaveBeenCalledTimes(1);
            lookups.mockClear();
            // Both still see the account: a right password signs in (the throttle's key is the account's).
            expect((await b.signIn(user.username, TEST_PASSWORD)).status).toBe(209);
            expect(lookups).toHaveBeenCalledTimes(1);
          } finally {
            lookups.mockRestore();
          }
        });

        it('S10: an unknown login meets the challenge exactly as a known one does', async () => {
          const user = await gw.addUser();
          const known = await riskyBrowser(user.username);
          const nobody = `nobody-${Date.now()}@example.test`;
          const unknown = await riskyBrowser(nobody);
          const a = await known.signIn(user.username);
          const c = await unknown.signIn(nobody);
          expect(formCodes(a)).toEqual(['captchaRequired']);
          expect(formCodes(c)).toEqual(formCodes(a));
          expect(c.body).toEqual(a.body);
        });
      });

      describe('per-partner policy and reCAPTCHA (versions 2 and 3)', () => {
        const HOST = 'id.recaptcha.example';
        beforeAll(async () => {
          await gw.store.partners.create({ id: 'plain', name: 'Plain Co', isDefault: true });
          await gw.store.partners.create({ id: 'rc', name: 'Recaptcha Co', domains: [HOST] });
        });

        function at(host: string) {
          return async () => {
            const agent = request.agent(gw.app).set('Host', host).set('X-Forwarded-For', nextIp());
            const res = await agent.get('/api/Account/Antiforgery').expect(200);
            const token = (res.body as { token: string }).token;
            return {
              agent,
              post: (url: string, body: unknown) =>
                agent
                  .post(url)
                  .set('x-csrf-token-value', token)
                  .send(body as object),
            };
          };
        }

        it('always: the first sign-in needs a challenge; never: none even after failures', async () => {
          await gw.store.captchaSettings.update('rc', { provider: 'altcha', when: 'always' });
          const b = await at(HOST)();
          const view = (await b.agent.get('/api/Account/LoginView').expect(200)).body as {
            captchaRequired: boolean;
          };
          expect(view.captchaRequired).toBe(true);
          expect(formCodes(await b.post('/api/Account/Login', { username: 'x', password: 'y' }))).toEqual([
            'captchaRequired',
          ]);
          await gw.store.captchaSettings.update('rc', { when: 'never' });
          const c = await at(HOST)();
          for (let i = 0; i < CAPTCHA_RISK.ownFailures + 1; i += 1)
            expect(
              formCodes(await c.post('/api/Account/Login', { username: 'x', password: 'y' })),
            ).not.toEqual(['captchaRequired']);
        });

        it('v2: LoginView names the site key, the CSP allows Google, a token verifies once (S9)', async () => {
          await gw.store.captchaSettings.update('rc', {
            provider: 'recaptcha-v2',
            when: 'always',
            siteKey: 'site-key-v2',
            secret: SECRET,
          });
          const b = await at(HOST)();
          const view = (await b.agent.get('/api/Account/LoginView').expect(200)).body as {
            captcha: unknown;
          };
          expect(view.captcha).toEqual({ version: 2, siteKey: 'site-key-v2' });
          // Twice each: the first answer may wait for the settings, the next comes from the copy in process.
          for (let i = 0; i < 2; i += 1) {
            const page = await b.agent.get('/account/login');
            expect(page.headers['content-security-policy']).toContain('https://www.google.com/recaptcha/');
            const plain = await request(gw.app).get('/account/login');
            expect(plain.headers['content-security-policy']).not.toContain('google');
          }

          const token = siteverify.token({ hostname: HOST });
          const ok = await b.post('/api/Account/VerifyCaptcha', { version: 2, token, action: 'login' });
          expect(ok.status).toBe(200);
          const call = siteverify.calls.at(-1)!;
          expect(call).toMatchObject({ secret: SECRET, response: token });
          expect(formCodes(await b.post('/api/Account/Login', { username: 'x', password: 'y' }))).toEqual([
            'invalidCredentials',
          ]);
          // Replayed: refused (the stand-in would still say success).
          expect(
            formCodes(await b.post('/api/Account/VerifyCaptcha', { version: 2, token, action: 'login' })),
          ).toEqual(['captchaInvalid']);
          // Made on another site, or refused by Google.
          for (const bad of [
            siteverify.token({ hostname: 'evil.example' }),
            siteverify.token({ hostname: HOST, success: false, 'error-codes': ['timeout-or-duplicate'] }),
            'never-issued',
          ])
            expect(
              formCodes(
                await b.post('/api/Account/VerifyCaptcha', { version: 2, token: bad, action: 'login' }),
              ),
            ).toEqual(['captchaInvalid']);
          // Not the partner's version.
          expect(
            formCodes(
              await b.post('/api/Account/VerifyCaptcha', {
                version: 1,
                token: siteverify.token({ hostname: HOST }),
                action: 'login',
              }),
            ),
          ).toEqual(['captchaInvalid']);
        });

        it('v3: the action and the score decide; a foreign action or a low score is refused (S9)', async () => {
          await gw.store.captchaSettings.update('rc', {
            provider: 'recaptcha-v3',
            when: 'always',
            siteKey: 'site-key-v3',
            secret: SECRET,
            minScore: 0.5,
          });
          const b = await at(HOST)();
          const send = (token: string, action = 'login') =>
            b.post('/api/Account/VerifyCaptcha', { version: 3, token, action });
          expect(
            formCodes(await send(siteverify.token({ hostname: HOST, action: 'recover', score: 0.9 }))),
          ).toEqual(['captchaInvalid']);
          expect(
            formCodes(await send(siteverify.token({ hostname: HOST, action: 'login', score: 0.2 }))),
          ).toEqual(['captchaInvalid']);
          expect(formCodes(await send(siteverify.token({ hostname: HOST, action: 'login' })))).toEqual([
            'captchaInvalid',
          ]);
          expect(formCodes(await b.post('/api/Account/Login', { username: 'x', password: 'y' }))).toEqual([
            'captchaRequired',
          ]);
          const good = siteverify.token({ hostname: HOST, action: 'login', score: 0.7 });
          expect((await send(good)).status).toBe(200);
          expect(formCodes(await send(good))).toEqual(['captchaInvalid']);
          expect(formCodes(await b.post('/api/Account/Login', { username: 'x', password: 'y' }))).toEqual([
            'invalidCredentials',
          ]);
        });

        it("only the partner's provider counts: a solved proof-of-work is refused once the partner uses reCAPTCHA", async () => {
          await gw.store.captchaSettings.update('rc', { provider: 'altcha', when: 'always' });
          const b = await at(HOST)();
          const challenge = (await b.agent.get('/api/Account/CaptchaChallenge?action=login').expect(200))
            .body as Challenge;
          const token = await solve(challenge);
          await gw.store.captchaSettings.update('rc', {
            provider: 'recaptcha-v2',
            siteKey: 'site-key-v2',
            secret: SECRET,
          });
          expect(
            formCodes(await b.post('/api/Account/VerifyCaptcha', { version: 1, token, action: 'login' })),
          ).toEqual(['captchaInvalid']);
          expect((await b.agent.get('/api/Account/CaptchaChallenge?action=login')).status).toBe(404);
        });

        it('a wrong secret or an unreachable verify URL refuses (fail closed)', async () => {
          await gw.store.captchaSettings.update('rc', {
            provider: 'recaptcha-v2',
            when: 'always',
            siteKey: 'site-key-v2',
            secret: 'not-the-secret',
          });
          const b = await at(HOST)();
          const token = siteverify.token({ hostname: HOST });
          expect(
            formCodes(await b.post('/api/Account/VerifyCaptcha', { version: 2, token, action: 'login' })),
          ).toEqual(['captchaInvalid']);
          expect(siteverify.calls.at(-1)?.secret).toBe('not-the-secret');
        });
      });
    },
  );
}
