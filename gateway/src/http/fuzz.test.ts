import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browser, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

const ENDPOINTS: [method: 'get' | 'post', path: string][] = [
  ['get', '/api/Account/Antiforgery'],
  ['post', '/api/Account/Exchange'],
  ['post', '/api/account/exchange'],
  ['get', '/api/Account/User'],
  ['post', '/api/Account/User'],
  ['get', '/api/Account/LoginView'],
  ['post', '/api/Account/LoginView'],
  ['post', '/api/Account/Login'],
  ['post', '/api/Account/LocalAllowed'],
  ['post', '/api/Account/IsRemoteAuthentication'],
  ['post', '/api/Account/LogoutView'],
  ['post', '/api/Account/Logout'],
  ['get', '/api/Account/ProfileImage'],
  ['post', '/api/ops/client-errors'],
  ['get', '/remotes/manifest.json'],
];

const JSON_BODIES: unknown[] = [
  null,
  [],
  [1, 2],
  'text',
  42,
  true,
  {},
  { username: 5, password: {} },
  { username: null, password: null, rememberMe: 'yes', returnUrl: 7 },
  { username: ['a'], password: ['b'] },
  { username: 'x'.repeat(10_000), password: 'y'.repeat(20_000) },
  { state: { $gt: '' } },
  { state: 'a'.repeat(5000) },
  { logoutId: ['x'] },
  { __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } },
  { message: null, url: [], kind: 5 },
];

const RAW_BODIES: [contentType: string, body: string][] = [
  ['application/json', '{"username": "a",'],
  ['application/json', 'not json at all'],
  ['application/json', '\u0000\u0001'],
  ['application/json', '{"a":'.repeat(2000)],
  ['application/json', `{"username":"${'z'.repeat(100_000)}"}`],
  ['text/plain', 'username=a&password=b'],
  ['application/x-www-form-urlencoded', 'username=a&password=b'],
  ['application/xml', '<a/>'],
];

const QUERIES = [
  '',
  '?returnUrl=a&returnUrl=b',
  `?returnUrl=${'%2F'.repeat(3000)}`,
  '?returnUrl[a]=1',
  '?logoutId[]=1&logoutId[]=2',
  '?returnUrl=%E0%A4%A',
  '?ReturnUrl=javascript:alert(1)',
];

describe('fuzz: malformed input never gives a 5xx', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('answers every endpoint and malformed body or query with a status below 500', async () => {
    const b = await browser(gw.app);
    const failures: string[] = [];
    const check = (label: string, status: number) => {
      if (status >= 500) failures.push(`${label} → ${status}`);
    };
    for (const [method, path] of ENDPOINTS) {
      for (const query of QUERIES) {
        const res = method === 'get' ? await b.agent.get(path + query) : await b.post(path + query, {});
        check(`${method} ${path}${query}`, res.status);
      }
      if (method === 'get') continue;
      for (const body of JSON_BODIES) {
        for (const withToken of [true, false]) {
          const req = b.agent.post(path).set('Content-Type', 'application/json');
          if (withToken) req.set('x-csrf-token-value', b.token);
          const res = await req.send(JSON.stringify(body));
          check(`${path} ${JSON.stringify(body)?.slice(0, 60)} token=${withToken}`, res.status);
          if (res.status === 400 && withToken && path.startsWith('/api/Account/Login')) {
            expect(res.body.errors, 'a 400 for bad input carries the errors map').toBeTypeOf('object');
          }
        }
      }
      for (const [contentType, body] of RAW_BODIES) {
        const res = await b.agent
          .post(path)
          .set('x-csrf-token-value', b.token)
          .set('Content-Type', contentType)
          .send(body);
        check(`${path} ${contentType} ${body.slice(0, 30)}`, res.status);
        if (res.status === 400 && contentType === 'application/json' && path.startsWith('/api/Account')) {
          expect(res.body.errors, `${path} ${body.slice(0, 20)}`).toBeTypeOf('object');
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
