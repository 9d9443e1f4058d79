import { describe, expect, it } from 'vitest';
import { carriesSecret, saysNoStore, storablePage } from './page-cache-policy';

const page = (path: string) => new URL(path, 'https://id.example.test');
const answer = (status: number, cacheControl?: string) => ({
  status,
  headers: new Headers(cacheControl ? { 'Cache-Control': cacheControl } : {}),
});

describe("the offline worker's page cache policy (S16, issue 48)", () => {
  it('S16 stores an ordinary page answered 200 private, no-cache', () => {
    expect(storablePage(page('/account/recover'), answer(200, 'private, no-cache'))).toBe(true);
    expect(storablePage(page('/'), answer(200))).toBe(true);
  });

  it.each(['no-store', 'private, no-store', 'No-Store', 'no-cache,no-store, max-age=0'])(
    'S16 never stores an answer that says %s, whatever its address',
    (cacheControl) => {
      expect(saysNoStore(answer(200, cacheControl))).toBe(true);
      expect(storablePage(page('/account/recover'), answer(200, cacheControl))).toBe(false);
    },
  );

  it.each([
    '/account/reset-password?token=abc',
    '/account/login/ott?Token=abc',
    '/account/?confirmEmail=abc',
    '/account/redeem-recoverycodes?id=abc',
    '/account/loggedout?logoutId=abc',
    '/account/login?returnUrl=%2Faccount%2F%3FconfirmEmail%3Dabc',
  ])('S16 never stores %s, even answered private, no-cache', (path) => {
    expect(carriesSecret(page(path))).toBe(true);
    expect(storablePage(page(path), answer(200, 'private, no-cache'))).toBe(false);
  });

  it('stores no error, redirect or opaque answer', () => {
    for (const status of [0, 302, 404, 503])
      expect(storablePage(page('/account/'), answer(status))).toBe(false);
  });
});
