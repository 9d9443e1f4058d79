/**
 * No secret in any cache (issue 48, finding 8; ADR 0044): every page whose address carries a secret answers
 * `Cache-Control: no-store` and `Referrer-Policy: no-referrer`, the links the mails really carry first of all. The
 * shell's service worker honours both (e2e/tests/secret-cache.spec.ts).
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_QUERY_PARAMETERS } from 'shared-contracts';
import { oneTimeTokenMailsSettled } from '../identity/one-time-token/one-time-sign-in.service.js';
import { recoveryMailsSettled } from '../identity/recovery/recovery.service.js';
import { browser, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

const PUBLIC_URL = 'https://id.example.test';

describe('pages whose address carries a secret (issue 48)', () => {
  let gw: TestGateway;
  let ip = 0;
  const nextIp = () => `203.0.113.${(ip += 1)}`;
  beforeAll(async () => {
    gw = await startTestGateway({ config: { publicUrl: PUBLIC_URL } });
  });
  afterAll(async () => {
    await gw.close();
  });

  /** The one link of the newest mail to `to` whose subject matches `subject`, as the user would follow it. */
  async function mailedLink(to: string, subject: RegExp): Promise<string> {
    const mail = (await gw.store.outbox.list({ to })).find((m) => subject.test(m.subject ?? ''));
    expect(mail, String(subject)).toBeDefined();
    const href = new RegExp(`${PUBLIC_URL}/\\S+\\?\\S+`).exec(mail!.text)?.[0];
    expect(href, String(subject)).toBeDefined();
    const url = new URL(href!);
    return `${url.pathname}${url.search}`;
  }

  /** The page as a browser opens it from a mail: a top-level navigation. */
  const open = (path: string) =>
    request(gw.app).get(path).set('Sec-Fetch-Dest', 'document').set('Sec-Fetch-Mode', 'navigate');

  function expectKeptByNoCache(res: request.Response, path: string) {
    expect(res.status, path).toBe(200);
    expect(res.headers['cache-control'], path).toBe('no-store');
    expect(res.headers['referrer-policy'], path).toBe('no-referrer');
    expect(res.headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
  }

  it('S16 S33 the links the mails carry (password reset, one-time sign-in, e-mail change) open pages no cache keeps, sent with no referrer', async () => {
    const user = await gw.addUser();
    const links: string[] = [];

    await (await browser(gw.app, nextIp())).post('/api/Account/Recover', { username: user.username });
    await recoveryMailsSettled();
    links.push(await mailedLink(user.email!, /^Reset your/));

    await (await browser(gw.app, nextIp())).post('/api/Account/SendOTP', { username: user.username });
    await oneTimeTokenMailsSettled();
    links.push(await mailedLink(user.email!, /sign-in code/));

    const b = await browser(gw.app, nextIp());
    expect((await b.signIn(user.username)).status).toBe(209);
    const newAddress = `moved-${user.username}@example.test`;
    await b.post('/api/Account/RequestEmailChange', { email: newAddress }).expect(200);
    links.push(await mailedLink(newAddress, /^Confirm your new email/));

    expect(links.map((link) => link.split('?')[0])).toEqual([
      '/account/reset-password',
      '/account/login/ott',
      '/account/',
    ]);
    for (const link of links) expectKeptByNoCache(await open(link), link);
  });

  it.each([
    '/account/reset-password?token=abc',
    '/account/reset-password?TOKEN=abc',
    '/account/login/ott?token=abc&returnUrl=%2Faccount%2F',
    '/account/?confirmEmail=abc',
    '/account?confirmemail=abc',
    '/account/?tab=profile&ConfirmEmail=abc',
    '/account/redeem-recoverycodes?id=abc',
    '/account/loggedout?logoutId=abc',
    '/account/no-such-page?token=abc',
    // A signed-out browser opening the e-mail change link is sent to sign in first, the token in its returnUrl.
    '/account/login?returnUrl=%2Faccount%2F%3FconfirmEmail%3Dabc',
  ])('S16 %s carries a secret: no-store and no referrer', async (path) => {
    const res = await open(path);
    expect(res.headers['cache-control'], path).toBe('no-store');
    expect(res.headers['referrer-policy'], path).toBe('no-referrer');
  });

  it('S16 every listed secret parameter makes a page no-store; an ordinary page and query stay private, no-cache', async () => {
    for (const name of SECRET_QUERY_PARAMETERS) expectKeptByNoCache(await open(`/account/?${name}=x`), name);
    for (const path of ['/account/', '/account/login?returnUrl=%2Faccount%2F', '/account/?tab=profile']) {
      const res = await open(path);
      expect(res.headers['cache-control'], path).toBe('private, no-cache');
      expect(res.headers['referrer-policy'], path).toBe('no-referrer');
    }
  });

  it('S16 a file-like path with a secret in its query is refused without being kept', async () => {
    const res = await open('/account/reset-password.html?token=abc');
    expect(res.status).toBe(404);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
