// Section 1's bare sign-in server (bare-sign-in.mjs) and the load generator's open-loop run of one fixed request, as
// section 1 uses them: the server must really verify (the gateway's own verifyPassword, found in its build) and
// answer as `Login` does, and the paced run must time only the answers it was told to expect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BARE_SIGN_IN_PATH, startBareSignIn } from './bare-sign-in.mjs';
import { runLoad } from './lib/load.mjs';

const PASSWORD = 'Bare-Password-1!';

describe('bare sign-in server (bench section 1)', () => {
  let server;
  let url;
  beforeAll(async () => {
    const started = await startBareSignIn({ password: PASSWORD });
    server = started.server;
    url = `http://127.0.0.1:${started.port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const signIn = (body) =>
    fetch(url + BARE_SIGN_IN_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('answers the right password as Login does: 209 with a redirect and a state', async () => {
    const res = await signIn({ username: 'anyone', password: PASSWORD });
    expect(res.status).toBe(209);
    const body = await res.json();
    expect(body.redirect).toBe('/account/home');
    expect(body.state).toEqual(expect.any(String));
  });

  it('refuses a wrong or missing password with 400', async () => {
    const wrong = await signIn({ username: 'anyone', password: `${PASSWORD}x` });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ errors: { '': ['invalidCredentials'] } });
    expect((await signIn({ username: 'anyone' })).status).toBe(400);
  });

  const job = (password, extra) => ({
    kind: 'fixed',
    url,
    duration: 1,
    expectStatus: 209,
    request: {
      method: 'POST',
      path: BARE_SIGN_IN_PATH,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'anyone', password }),
    },
    ...extra,
  });

  it('is driven at a fixed rate by the load generator, every arrival answered and timed', async () => {
    const r = await runLoad(job(PASSWORD, { rate: 20 }));
    expect(r.statuses).toEqual({ 209: 20 });
    expect(r.counted).toBe(20);
    expect(r.perSecond).toBe(20);
    expect(r.p50).toBeGreaterThan(0);
    expect(r.p99).toBeGreaterThanOrEqual(r.p50);
    expect(r.generatorLag.p99).toBeGreaterThanOrEqual(0);
  });

  it('times only the expected answers: refused sign-ins are counted by status, not timed', async () => {
    const paced = await runLoad(job('wrong', { rate: 10 }));
    expect(paced.statuses).toEqual({ 400: 10 });
    expect(paced.counted).toBe(0);
    expect(Number.isFinite(paced.p99)).toBe(false); // no sample (NaN, null once through IPC)
    const closed = await runLoad(job('wrong', { connections: 1, amount: 5 }));
    expect(closed.statuses).toEqual({ 400: 5 });
    expect(closed.counted).toBe(0);
  });
});
