import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PENDING_SIGN_IN_MS } from '../identity/sign-in/sign-in.service.js';
import { sha256 } from '../infra/crypto/tokens.js';
import { BACKENDS, TEST_PASSWORD, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

/** One request as a browser sends it: the same bytes go to both apps. */
interface Call {
  name: string;
  method: 'GET' | 'POST' | 'HEAD';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Headers that differ between any two answers (time, request id, the CSP nonce) are compared by shape. */
function comparable(res: request.Response) {
  const headers: Record<string, unknown> = { ...res.headers };
  delete headers['date'];
  expect(headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  delete headers['x-request-id'];
  if (typeof headers['content-security-policy'] === 'string')
    headers['content-security-policy'] = headers['content-security-policy'].replace(
      /'nonce-[^']+'/g,
      "'nonce-…'",
    );
  // A new session's cookie carries a new id: its name and attributes must match.
  const cookies = res.headers['set-cookie'] as unknown as string[] | undefined;
  if (cookies) headers['set-cookie'] = cookies.map((c) => c.replace(/=[^;]*/, '=…')).sort();
  return { status: res.status, headers, body: res.text };
}

async function send(app: Express, call: Call): Promise<request.Response> {
  const method = call.method.toLowerCase() as 'get' | 'post' | 'head';
  let req = request(app)[method](call.path);
  for (const [name, value] of Object.entries(call.headers ?? {})) req = req.set(name, value);
  return call.body === undefined ? req : req.send(call.body);
}

for (const backend of BACKENDS)
  describe.skipIf(backend.skip)(
    `light-call dispatcher (ADR 0027, ${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      let full: Express;
      beforeAll(async () => {
        gw = await startTestGateway({ backend: backend.name });
        full = gw.appWith({ lightCalls: false });
      }, 30_000);
      afterAll(async () => {
        await gw?.close();
      });

      /** A browser's session: its cookies and anti-forgery token (from the full stack). */
      async function session(): Promise<{ cookie: string; token: string }> {
        const res = await request(full).get('/api/Account/Antiforgery').expect(200);
        const cookies = (res.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]);
        return { cookie: cookies.join('; '), token: (res.body as { token: string }).token };
      }

      /** The session after a password sign-in as `username` (209 answered, state exchanged). */
      async function signedIn(username: string): Promise<{ cookie: string; token: string }> {
        const agent = request.agent(full);
        const first = await agent.get('/api/Account/Antiforgery').expect(200);
        const login = await agent
          .post('/api/Account/Login')
          .set('x-csrf-token-value', (first.body as { token: string }).token)
          .send({ username, password: TEST_PASSWORD, rememberMe: false });
        expect(login.status).toBe(209);
        const exchanged = await agent
          .post('/api/Account/Exchange')
          .set('x-csrf-token-value', (first.body as { token: string }).token)
          .send({ state: (login.body as { state: string }).state })
          .expect(200);
        const cookies = (login.headers['set-cookie'] as unknown as string[])
          .concat((exchanged.headers['set-cookie'] as unknown as string[] | undefined) ?? [])
          .map((c) => c.split(';')[0]!);
        const jar = new Map(cookies.map((c) => [c.split('=')[0], c]));
        return { cookie: [...jar.values()].join('; '), token: (exchanged.body as { token: string }).token };
      }

      function calls(who: string, s: { cookie: string; token: string } | undefined): Call[] {
        const cookie: Record<string, string> = s ? { cookie: s.cookie } : {};
        const csrf: Record<string, string> = s ? { 'x-csrf-token-value': s.token } : {};
        const json = { 'content-type': 'application/json' };
        return [
          {
            name: `${who} GET User`,
            method: 'GET',
            path: '/api/Account/User?returnUrl=%2F',
            headers: cookie,
          },
          {
            name: `${who} POST User`,
            method: 'POST',
            path: '/api/Account/User',
            headers: { ...cookie, ...csrf },
          },
          { name: `${who} GET User, no query`, method: 'GET', path: '/api/Account/User', headers: cookie },
          {
            name: `${who} POST GetPartnerMetaData`,
            method: 'POST',
            path: '/api/Account/GetPartnerMetaData',
            headers: { ...cookie, ...csrf, ...json },
            body: '{}',
          },
          {
            name: `${who} POST GetPartnerMetaData as the pages send it (no body, no content type)`,
            method: 'POST',
            path: '/api/Account/GetPartnerMetaData',
            headers: { ...cookie, ...csrf, 'content-length': '0' },
          },
          {
            name: `${who} POST LoginView as the pages send it (no body, no content type)`,
            method: 'POST',
            path: '/api/Account/LoginView?returnUrl=%2F',
            headers: { ...cookie, ...csrf, 'content-length': '0' },
          },
          {
            name: `${who} POST LoginView with a body that is not JSON, sent as a form`,
            method: 'POST',
            path: '/api/Account/LoginView?returnUrl=%2F',
            headers: { ...cookie, ...csrf },
            body: '{"returnUrl":',
          },
          {
            name: `${who} POST LoginView with a JSON body in a charset the parser refuses`,
            method: 'POST',
            path: '/api/Account/LoginView?returnUrl=%2F',
            headers: { ...cookie, ...csrf, 'content-type': 'application/json; charset=latin1' },
            body: '{}',
          },
          {
            name: `${who} POST LoginView`,
            method: 'POST',
            path: '/api/Account/LoginView?returnUrl=%2Fconnect%2Fauthorize%3Fclient_id%3Dx',
            headers: { ...cookie, ...csrf, ...json },
            body: '{}',
          },
          {
            name: `${who} GET LoginView in German`,
            method: 'GET',
            path: '/api/Account/LoginView?returnUrl=%2F',
            headers: { ...cookie, 'accept-language': 'de-DE,de;q=0.9' },
          },
          // Refusals: the dispatcher hands these to the full stack, which must answer them as it always has.
          {
            name: `${who} POST GetPartnerMetaData without the anti-forgery header`,
            method: 'POST',
            path: '/api/Account/GetPartnerMetaData',
            headers: { ...cookie, ...json },
            body: '{}',
          },
          {
            name: `${who} POST LoginView with a wrong anti-forgery header`,
            method: 'POST',
            path: '/api/Account/LoginView?returnUrl=%2F',
            headers: { ...cookie, 'x-csrf-token-value': 'forged', ...json },
            body: '{}',
          },
          {
            name: `${who} POST LoginView with a body that is not JSON`,
            method: 'POST',
            path: '/api/Account/LoginView?returnUrl=%2F',
            headers: { ...cookie, ...csrf, ...json },
            body: '{"returnUrl":',
          },
          {
            name: `${who} GET User with a returnUrl too long`,
            method: 'GET',
            path: `/api/Account/User?returnUrl=${'a'.repeat(2049)}`,
            headers: cookie,
          },
          {
            name: `${who} GET LoginView with two returnUrls`,
            method: 'GET',
            path: '/api/Account/LoginView?returnUrl=%2Fa&returnUrl=%2Fb',
            headers: cookie,
          },
          { name: `${who} HEAD User`, method: 'HEAD', path: '/api/Account/User', headers: cookie },
          { name: `${who} GET GetPartnerMetaData`, method: 'GET', path: '/api/Account/GetPartnerMetaData' },
          { name: `${who} user, other casing`, method: 'GET', path: '/api/account/user/', headers: cookie },
        ];
      }

      async function expectSameAnswers(list: Call[]) {
        for (const call of list) {
          // Twice: the second answer comes from what the first remembered (parsed query, proved token pair).
          for (const time of ['first', 'again']) {
            const fast = comparable(await send(gw.app, call));
            const slow = comparable(await send(full, call));
            expect({ call: `${call.name} (${time})`, ...fast }).toEqual({
              call: `${call.name} (${time})`,
              ...slow,
            });
            // No-store answers carry no ETag (app.ts): it would cost a hash of every body and never match.
            expect(fast.headers['etag']).toBeUndefined();
          }
        }
      }

      /** The 2xx answers counted so far (the access log's counter, which every answer goes through). */
      function answered(): number {
        return Number(/http_requests_total\{status="2xx"\} (\d+)/.exec(gw.metrics.render())?.[1] ?? 0);
      }

      it("answers the pages' calls ahead of Express, counted as every answer is; anything else enters the app", async () => {
        const s = await session();
        const names = [
          'GET User',
          'GET User, no query',
          'POST GetPartnerMetaData as the pages send it (no body, no content type)',
          'POST LoginView as the pages send it (no body, no content type)',
          'GET LoginView in German',
        ];
        const pages = calls('anonymous session', s).filter((c) => names.includes(c.name.slice(18)));
        expect(pages).toHaveLength(names.length);
        // The partner's settings come into the process with a first call (until then the full stack answers).
        await send(gw.app, pages[0]!);
        const router = (gw.app as unknown as { router: { handle: () => void } }).router;
        const entered = vi.spyOn(router, 'handle');
        try {
          for (const call of pages) {
            const before = answered();
            const res = await send(gw.app, call);
            expect({ call: call.name, status: res.status }).toEqual({ call: call.name, status: 200 });
            expect(answered()).toBe(before + 1);
          }
          expect(entered).not.toHaveBeenCalled();
          // A body, a refusal, another spelling: the app's own entry, as before the lane.
          await send(
            gw.app,
            calls('anonymous session', s).find((c) => c.name.endsWith('POST LoginView'))!,
          );
          await send(gw.app, { name: 'no token', method: 'POST', path: '/api/Account/GetPartnerMetaData' });
          await send(gw.app, { name: 'casing', method: 'GET', path: '/api/account/user' });
          expect(entered).toHaveBeenCalledTimes(3);
        } finally {
          entered.mockRestore();
        }
      });

      it('a big answer goes out compressed, exactly as the full stack sends it', async () => {
        await gw.store.partners.create({
          id: 'wordy',
          name: 'Wordy Payroll',
          domains: ['wordy.example.test'],
          privacyPolicyUrl: `https://wordy.example.test/privacy?${'section=terms&'.repeat(100)}`,
        });
        const s = await session();
        const call: Call = {
          name: 'big GetPartnerMetaData',
          method: 'POST',
          path: '/api/Account/GetPartnerMetaData',
          headers: {
            host: 'wordy.example.test',
            cookie: s.cookie,
            'x-csrf-token-value': s.token,
            'content-length': '0',
            'accept-encoding': 'gzip',
          },
        };
        await send(gw.app, call);
        const router = (gw.app as unknown as { router: { handle: () => void } }).router;
        const entered = vi.spyOn(router, 'handle');
        try {
          const fast = await send(gw.app, call);
          expect(entered).not.toHaveBeenCalled();
          expect(fast.headers['content-encoding']).toBe('gzip');
          expect((fast.body as { privacyPolicyUrl: string }).privacyPolicyUrl).toContain('section=terms');
          expect(comparable(fast)).toEqual(comparable(await send(full, call)));
        } finally {
          entered.mockRestore();
        }
      });

      it('answers exactly as the full stack for a browser without a session', async () => {
        await expectSameAnswers(calls('anonymous', undefined));
      });

      it('answers exactly as the full stack for an anonymous session', async () => {
        await expectSameAnswers(calls('anonymous session', await session()));
      });

      it('answers exactly as the full stack for a signed-in session', async () => {
        const user = await gw.addUser();
        const s = await signedIn(user.username);
        const me = await request(gw.app).get('/api/Account/User').set('cookie', s.cookie).expect(200);
        expect(me.body).toMatchObject({ isAuthenticated: true, userName: user.username });
        await expectSameAnswers(calls('signed in', s));
      });

      it('leaves a pending sign-in to the gate: the same answers, and a call of no step restarts the flow', async () => {
        const user = await gw.addUser({ passwordExpiresAt: gw.clock.now() - 1000 });
        const probe = await signedIn(user.username);
        const me = await request(gw.app).get('/api/Account/User').set('cookie', probe.cookie).expect(200);
        expect(me.body).toEqual({ isAuthenticated: false, signInStep: '/account/change-expired-password' });
        // A refused call ends the pending sign-in: each app gets a pending session of its own for every call.
        for (const [index, call] of calls('pending', probe).entries()) {
          const answers = [];
          for (const app of [gw.app, full]) {
            const own = calls('pending', await signedIn(user.username))[index]!;
            answers.push(comparable(await send(app, own)));
          }
          expect({ call: call.name, ...answers[0] }).toEqual({ call: call.name, ...answers[1] });
        }
      });

      it('a stale pending sign-in is forgotten by a light call, as the gate forgets it', async () => {
        const user = await gw.addUser({ passwordExpiresAt: gw.clock.now() - 1000 });
        const s = await signedIn(user.username);
        const id = /idp\.session=([^;]+)/.exec(s.cookie)![1]!;
        const pending = async () => {
          const stored = await gw.sessionStore.get(sha256(id));
          return stored && 'record' in stored ? stored.record.data.pending : undefined;
        };
        expect(await pending()).toBeDefined();
        gw.clock.advance(PENDING_SIGN_IN_MS + 1000);
        await request(gw.app).get('/api/Account/User').set('cookie', s.cookie).expect(200);
        expect(await pending()).toBeUndefined();
      });

      it('a session that timed out gets the full stack: LoginView issues a fresh session with the page', async () => {
        // A stored record, so that the idle timeout can end it (an issued anonymous id is never stored until saved).
        const user = await gw.addUser();
        const signed = await signedIn(user.username);
        gw.clock.advance(gw.config.sessionIdleMs + 60_000);
        const list = calls('timed out', signed).filter((c) => c.name.includes('LoginView'));
        for (const call of list) {
          const fast = await send(gw.app, call);
          const slow = await send(full, call);
          expect(comparable(fast)).toEqual(comparable(slow));
        }
        const view = await send(
          gw.app,
          list.find((c) => c.name === 'timed out GET LoginView in German')!,
        );
        expect(view.status).toBe(200);
        expect(view.headers['set-cookie']).toEqual(
          expect.arrayContaining([expect.stringMatching(/^idp\.session=/)]),
        );
      });
    },
  );
