import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browser, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

describe('request logging and compression of light calls', () => {
  let gw: TestGateway;
  const lines: {
    level: number;
    msg: string;
    req?: { id: string; method: string; url: string; headers: Record<string, string> };
    res?: { statusCode: number };
  }[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
        done();
      },
    });
    // The default level of a deployment.
    gw = await startTestGateway({ overrides: { logger: pino({ level: 'info' }, sink) } });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('answered light calls (User, GetPartnerMetaData, LoginView) write no log line at the default level', async () => {
    lines.length = 0;
    const b = await browser(gw.app);
    await b.agent.get('/api/Account/User').expect(200);
    await b.post('/api/Account/GetPartnerMetaData').expect(200);
    await b.agent.get('/api/Account/LoginView').expect(200);
    expect(lines).toEqual([]);
  });

  it('refusals are still logged at info, with their status', async () => {
    lines.length = 0;
    await request(gw.app).post('/api/Account/Login').send({}).expect(400);
    expect(lines.map((l) => [l.level, l.res?.statusCode])).toEqual([[30, 400]]);
  });

  it('a line carries the request (its id as answered in X-Request-Id)', async () => {
    lines.length = 0;
    const res = await request(gw.app)
      .post('/api/Account/Login')
      .set('X-Request-Id', 'trace-1.a_b')
      .send({})
      .expect(400);
    expect(res.headers['x-request-id']).toBe('trace-1.a_b');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request completed',
      req: { id: 'trace-1.a_b', method: 'POST', url: '/api/Account/Login' },
    });
    // A malformed id is replaced by a fresh one.
    const other = await request(gw.app).get('/api/Account/User').set('X-Request-Id', 'bad id!');
    expect(other.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a tiny JSON answer is not compressed; a large page is', async () => {
    const small = await request(gw.app).get('/api/Account/User').set('Accept-Encoding', 'gzip');
    expect(small.headers['content-encoding']).toBeUndefined();
    const asset = await request(gw.app).get('/assets/main.0123abcd.js').set('Accept-Encoding', 'gzip');
    expect(asset.headers['content-encoding']).toBe('gzip');
  });
});
