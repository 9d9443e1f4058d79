import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import express, { type Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, browser, startTestGateway, type TestGateway } from '../testing/test-gateway.js';
import { createAppServer } from './app-server.js';

/** What a request listener ahead of the app saw of each request's and response's prototype. */
async function prototypesSeen(app: Express, server: ReturnType<typeof createServer>) {
  const seen: Array<{ request: boolean; response: boolean }> = [];
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    seen.push({
      request: Object.getPrototypeOf(req) === app.request,
      response: Object.getPrototypeOf(res) === app.response,
    });
  });
  const res = await request(server).post('/echo?x=1').send({ hello: 'world' }).expect(200);
  return { seen, body: res.body as unknown };
}

function echoApp(): Express {
  const app = express();
  app.use(express.json());
  app.post('/echo', (req, res) => {
    res.json({ body: req.body as unknown, query: req.query, hostname: req.hostname });
  });
  return app;
}

describe('createAppServer', () => {
  it("makes every request and response with the app's own prototypes, and Express serves them as usual", async () => {
    const app = echoApp();
    const { seen, body } = await prototypesSeen(app, createAppServer(app));
    expect(seen).toEqual([{ request: true, response: true }]);
    expect(body).toEqual({ body: { hello: 'world' }, query: { x: '1' }, hostname: '127.0.0.1' });

    // Node's own server makes them as Node's objects: Express changes their prototypes on entry.
    const plain = echoApp();
    expect((await prototypesSeen(plain, createServer(plain))).seen).toEqual([
      { request: false, response: false },
    ]);
  });
});

for (const backend of BACKENDS)
  describe.skipIf(backend.skip)(
    `the gateway on its own server (${backend.name})${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let gw: TestGateway;
      beforeAll(async () => {
        gw = await startTestGateway({ backend: backend.name });
      }, 30_000);
      afterAll(async () => {
        await gw?.close();
      });

      it('signs a person in, refuses bad input with the errors map and serves the light calls and the shell’s page', async () => {
        const user = await gw.addUser();
        const b = await browser(createAppServer(gw.app));
        const wrong = await b.signIn(user.username, 'wrong-password');
        expect(wrong.status).toBe(400);
        expect(wrong.body.errors).toEqual({ '': ['invalidCredentials'] });
        const empty = await b.post('/api/Account/Login', { username: '', password: '' }).expect(400);
        expect(empty.body.errors).toEqual({ username: ['required'], password: ['required'] });
        const broken = await b.agent
          .post('/api/Account/Login')
          .set('x-csrf-token-value', b.token)
          .set('content-type', 'application/json')
          .send('{"username":');
        expect(broken.status).toBe(400);

        const signedIn = await b.signIn(user.username);
        expect(signedIn.status).toBe(209);
        const me = await b.agent.get('/api/Account/User?returnUrl=%2F').expect(200);
        expect(me.body).toMatchObject({ isAuthenticated: true, userName: user.username });
        const view = await b.agent
          .post('/api/Account/LoginView?returnUrl=%2F')
          .set('x-csrf-token-value', b.token)
          .set('content-length', '0')
          .expect(200);
        expect(view.headers['content-type']).toBe('application/json; charset=utf-8');

        const page = await b.agent.get('/account/login').expect(200);
        // The test gateway's fake shell build: its page with this answer's nonce.
        expect(page.text).toMatch(
          /^<!doctype html>.*<script nonce="[^"]+">window.boot=1<\/script>.*<div id="root">/,
        );
        await b.agent.get('/no/such/page.js').expect(404);
      });
    },
  );
