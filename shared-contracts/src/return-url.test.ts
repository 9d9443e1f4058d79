import { describe, expect, it } from 'vitest';
import { isAcceptableReturnUrl, safeReturnUrl, withReturnUrl } from './return-url.js';

const clients = ['https://payroll.example.com/callback', 'http://localhost:4000/'];

describe('returnUrl safety', () => {
  it.each([
    '/',
    '/account/login',
    '/account/select?cid=42&returnUrl=%2F',
    '/connect/authorize?client_id=a&redirect_uri=https%3A%2F%2Fpayroll.example.com%2Fcallback',
    '/interaction/abc#x',
  ])('accepts the same-origin path %s', (value) => {
    expect(isAcceptableReturnUrl(value, clients)).toBe(true);
  });

  it.each([
    ['https://payroll.example.com/callback'],
    ['https://payroll.example.com/callback?code=1'],
    ['http://localhost:4000/dashboard'],
  ])('accepts the registered client URL %s', (value) => {
    expect(isAcceptableReturnUrl(value, clients)).toBe(true);
  });

  // SECURITY-CHECKLIST S31: the whole corpus of the checklist, plus encoded variants.
  it.each([
    '//evil.com',
    '//evil.com/path',
    '/\\evil.com',
    '\\\\evil.com',
    '/%09/evil.com',
    '/%2F/evil.com',
    '/%2f%2fevil.com',
    '/%5Cevil.com',
    '/%5cevil.com',
    '/%252F%252Fevil.com',
    '/\t/evil.com',
    '/\r\nLocation: https://evil.com',
    '/a\nb',
    '/%0d%0aSet-Cookie:x=1',
    'https://ok@evil.com',
    'https://payroll.example.com@evil.com/callback',
    'https://payroll.example.com.evil.com/callback',
    'https://payroll.example.com/callbackevil',
    'https://user:pw@payroll.example.com/callback',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'evil.com',
    'https://evil.com',
    'http://localhost:4001/',
    '/%',
    '',
  ])('S31 refuses %j', (value) => {
    expect(isAcceptableReturnUrl(value, clients)).toBe(false);
    expect(safeReturnUrl(value, clients)).toBe('/');
  });

  it('gives "/" for missing values', () => {
    expect(safeReturnUrl(undefined)).toBe('/');
    expect(safeReturnUrl(null)).toBe('/');
    expect(safeReturnUrl(42)).toBe('/');
  });
});

describe('returnUrlOf', () => {
  it('reads returnUrl, then ReturnUrl, else "/", from search params and parsed queries', async () => {
    const { returnUrlOf } = await import('./return-url.js');
    expect(returnUrlOf(new URLSearchParams('returnUrl=/a&ReturnUrl=/b'))).toBe('/a');
    expect(returnUrlOf(new URLSearchParams('ReturnUrl=/b'))).toBe('/b');
    expect(returnUrlOf(new URLSearchParams(''))).toBe('/');
    expect(returnUrlOf({ returnUrl: '', ReturnUrl: '/b' })).toBe('/b');
    expect(returnUrlOf({ returnUrl: ['/x'] })).toBe('/');
  });
});

describe('withReturnUrl', () => {
  it.each([
    ['/account/login', '/', '/account/login?returnUrl=%2F'],
    ['/redirect', '/connect/auth?x=1&y=2', '/redirect?returnUrl=%2Fconnect%2Fauth%3Fx%3D1%26y%3D2'],
    ['/', '/account/select?cid=4', '/?returnUrl=%2Faccount%2Fselect%3Fcid%3D4'],
    [
      '/account/login/vendor?vendorId=contoso',
      '/a b',
      '/account/login/vendor?vendorId=contoso&returnUrl=%2Fa%20b',
    ],
    [
      '/account/login',
      'https://payroll.example.com/cb#f',
      '/account/login?returnUrl=https%3A%2F%2Fpayroll.example.com%2Fcb%23f',
    ],
  ])('withReturnUrl(%j, %j) is %j', (path, url, expected) => {
    expect(withReturnUrl(path, url)).toBe(expected);
  });

  it('nests: the inner returnUrl is encoded once more', () => {
    expect(withReturnUrl('/account/login', withReturnUrl('/account/setup-twofactor', '/'))).toBe(
      '/account/login?returnUrl=%2Faccount%2Fsetup-twofactor%3FreturnUrl%3D%252F',
    );
  });

  it('round-trips through returnUrlOf', async () => {
    const { returnUrlOf } = await import('./return-url.js');
    const url = '/connect/authorize?client_id=a&redirect_uri=https%3A%2F%2Fx';
    expect(
      returnUrlOf(new URL(withReturnUrl('/account/login', url), 'https://id.invalid').searchParams),
    ).toBe(url);
  });
});
