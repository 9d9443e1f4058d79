/**
 * Outages of a dependency are answered as such (issue 41): a request that cannot reach the database or Redis gets
 * 503 with Retry-After, never 500 and never a grant; /readyz is red while a dependency is down; the outage is logged
 * once when it starts and once when it ends, not once per request.
 */
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { DependencyHealth, isDependencyUnavailable } from '../infra/dependency-health.js';
import { RedisSessionStore } from '../infra/sessions/redis-session.store.js';
import { LoginThrottle } from '../infra/throttle/login-throttle.js';
import { browser, startTestGateway, TEST_PASSWORD, type TestGateway } from '../testing/test-gateway.js';

const gateways: TestGateway[] = [];
const clients: Redis[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.disconnect();
  await Promise.all(gateways.splice(0).map((gw) => gw.close()));
});

/** A Redis client configured as runtime.ts configures it, pointed at a port nothing listens on. */
function deadRedis(): Redis {
  const dead = new Redis('redis://127.0.0.1:1', {
    enableOfflineQueue: false,
    lazyConnect: true,
    maxRetriesPerRequest: 1,
  });
  dead.on('error', () => undefined);
  clients.push(dead);
  return dead;
}

function captureLogger() {
  const lines: { level: number; msg: string; dependency?: string }[] = [];
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
        done();
      },
    }),
  );
  return { lines, logger };
}

describe('a dependency that does not answer', () => {
  it('sign-in and the session calls answer 503 + Retry-After, never 500, and grant nothing', async () => {
    const gw = await startTestGateway();
    gateways.push(gw);
    const user = await gw.addUser();
    // The sessions live in a Redis that is down, as during a Redis restart. An anonymous browser's token and cookie
    // need no store (they are signed); everything that reads the session does.
    const agent = request.agent(gw.appWith({ sessionStore: new RedisSessionStore(deadRedis()) }));
    const { token } = (await agent.get('/api/Account/Antiforgery').expect(200)).body as { token: string };
    for (const call of [
      () => agent.get('/api/Account/User'),
      () =>
        agent
          .post('/api/Account/Login')
          .set('x-csrf-token-value', token)
          .send({ username: user.username, password: TEST_PASSWORD, rememberMe: false }),
    ]) {
      const res = await call();
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect((res.body as { errors: Record<string, string[]> }).errors['']).toEqual(['serviceUnavailable']);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('a sign-in refused because the throttle store is down (S8) says when to try again', async () => {
    const gw = await startTestGateway({
      overrides: { throttle: new LoginThrottle({ kind: 'redis', client: deadRedis() }) },
    });
    gateways.push(gw);
    const user = await gw.addUser();
    const res = await (await browser(gw.app)).signIn(user.username, TEST_PASSWORD);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
  });

  it('/readyz is red while a probe fails and green again when it answers; one warn line each way', async () => {
    const { lines, logger } = captureLogger();
    let redisUp = true;
    const health = new DependencyHealth({
      probes: { database: () => Promise.resolve(true), redis: () => Promise.resolve(redisUp) },
      logger,
    });
    const gw = await startTestGateway();
    gateways.push(gw);
    const app = gw.appWith({ health });
    await request(app).get('/readyz').expect(200);

    redisUp = false;
    for (let i = 0; i < 3; i += 1) await health.probe();
    const down = await request(app).get('/readyz').expect(503);
    expect(down.body).toMatchObject({
      status: 'unavailable',
      dependencies: { database: true, redis: false },
    });
    expect(gw.metrics.render()).toContain('dependency_up{dependency="redis"} 0');

    redisUp = true;
    for (let i = 0; i < 3; i += 1) await health.probe();
    await request(app).get('/readyz').expect(200);
    expect(lines.filter((line) => line.level === 40).map((line) => [line.msg, line.dependency])).toEqual([
      ['dependency down', 'redis'],
      ['dependency recovered', 'redis'],
    ]);
  });
});

describe('isDependencyUnavailable', () => {
  const coded = (code: string) => Object.assign(new Error('x'), { code });
  it.each([
    ['pg: server closed the connection', new Error('Connection terminated unexpectedly')],
    ['pg-pool: no connection in time', new Error('timeout exceeded when trying to connect')],
    ['socket refused', coded('ECONNREFUSED')],
    ['socket reset', coded('ECONNRESET')],
    ['PostgreSQL shutting down (57P01)', coded('57P01')],
    ['PostgreSQL starting up (57P03)', coded('57P03')],
    ['PostgreSQL connection failure (08006)', coded('08006')],
    ['ioredis closed', new Error('Connection is closed.')],
    [
      'ioredis reconnecting without a queue',
      new Error("Stream isn't writeable and enableOfflineQueue options is false"),
    ],
    ['wrapped as a cause', new Error('throttle store unavailable', { cause: coded('ECONNREFUSED') })],
  ])('%s is an outage', (_name, error) => {
    expect(isDependencyUnavailable(error)).toBe(true);
  });
  it.each([
    ['a bug', new TypeError('cannot read properties of undefined')],
    ['a refused statement (unique violation)', coded('23505')],
    ['not an error', 'ECONNREFUSED'],
  ])('%s is not', (_name, error) => {
    expect(isDependencyUnavailable(error)).toBe(false);
  });
});
