import { describe, expect, it } from 'vitest';
import { hmac } from './crypto/tokens.js';
import { cookieName, cookieOptions, providerCookieOptions, setCookieValue } from './cookie-attributes.js';
import type { CookieJar } from './cookie-jar.js';
import { SignedCookieEntries, type SignedEntriesKind } from './signed-cookie-entries.js';
import { KnownBrowsers } from './throttle/known-browsers.js';

const secretKey = Buffer.alloc(32, 7);
const ann = { id: 'ann', securityStamp: 'stamp-1' };
const bob = { id: 'bob', securityStamp: 'stamp-2' };

/** A browser's cookies: what it sends, updated by each Set-Cookie as a browser would. */
function browserJar(): CookieJar & { setCookies: string[] } {
  const cookies = new Map<string, string>();
  const setCookies: string[] = [];
  return {
    setCookies,
    cookie: (name) => cookies.get(name),
    setCookie(value) {
      setCookies.push(value);
      const [pair = ''] = value.split(';');
      const eq = pair.indexOf('=');
      cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    },
  };
}

const kind = (overrides: Partial<SignedEntriesKind> = {}): SignedEntriesKind => ({
  name: 'idp.test',
  label: 'test',
  fields: ['[0-9]{1,15}'],
  maxEntries: 3,
  maxAgeSeconds: 60,
  ...overrides,
});

describe('signed cookie entries (issue 50: one place signs, verifies and rotates)', () => {
  it('signs an entry for one account and its stamp only', () => {
    const entries = new SignedCookieEntries({ secretKey, secure: false }, kind());
    const jar = browserJar();
    const { entry } = entries.rotate(jar, ann, ['123']);
    expect(entry.fields).toEqual(['123']);
    expect(entries.signedEntries(jar, ann).map((e) => e.random)).toEqual([entry.random]);
    expect(entries.signedEntries(jar, bob)).toEqual([]);
    // A new security stamp (password change, revoke) kills it.
    expect(entries.signedEntries(jar, { ...ann, securityStamp: 'stamp-new' })).toEqual([]);
  });

  it('refuses a changed field, a changed MAC, another key and another kind’s label', () => {
    const entries = new SignedCookieEntries({ secretKey, secure: false }, kind());
    const jar = browserJar();
    const { entry } = entries.rotate(jar, ann, ['123']);
    const forged = (text: string) => ({ cookie: () => text });
    expect(entries.signedEntries(forged(entry.text.replace(/^123/, '999')), ann)).toEqual([]);
    const mac = entry.text.slice(-43);
    const otherMac = (mac[0] === 'A' ? 'B' : 'A') + mac.slice(1);
    expect(entries.signedEntries(forged(entry.text.slice(0, -43) + otherMac), ann)).toEqual([]);
    const otherKey = new SignedCookieEntries({ secretKey: Buffer.alloc(32, 8), secure: false }, kind());
    expect(otherKey.signedEntries(jar, ann)).toEqual([]);
    const otherLabel = new SignedCookieEntries({ secretKey, secure: false }, kind({ label: 'other' }));
    expect(otherLabel.signedEntries(jar, ann)).toEqual([]);
  });

  it('rotates: the account’s earlier entry goes, the newest comes first, past the cap the oldest drop out', () => {
    const entries = new SignedCookieEntries(
      { secretKey, secure: false },
      kind({ fields: [], maxEntries: 2 }),
    );
    const jar = browserJar();
    const first = entries.rotate(jar, ann).entry;
    const second = entries.rotate(jar, ann);
    expect(second.dropped.map((e) => e.random)).toEqual([first.random]);
    expect(entries.entries(jar).map((e) => e.random)).toEqual([second.entry.random]);
    const bobs = entries.rotate(jar, bob).entry;
    const carols = entries.rotate(jar, { id: 'carol', securityStamp: 's' });
    expect(carols.dropped.map((e) => e.random)).toEqual([second.entry.random]);
    expect(entries.entries(jar).map((e) => e.random)).toEqual([carols.entry.random, bobs.random]);
  });

  it('writes its cookie with the one set of attributes: __Host-, Path=/, HttpOnly, SameSite=Lax, Secure, Max-Age', () => {
    const entries = new SignedCookieEntries({ secretKey, secure: true }, kind());
    const jar = browserJar();
    entries.rotate(jar, ann, ['1']);
    expect(entries.cookieName).toBe('__Host-idp.test');
    expect(jar.setCookies[0]).toMatch(
      /^__Host-idp\.test=1\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Secure; Max-Age=60$/,
    );
  });

  it('keeps the known browsers’ entries readable as before (random.MAC under "known-device")', () => {
    const jar = browserJar();
    const known = new KnownBrowsers({ secretKey, secure: false });
    known.remember(jar, ann);
    const [random] = jar.cookie('idp.device')!.split('.');
    expect(known.recognise(jar, ann)).toBe(random);
    expect(known.recognise(jar, bob)).toBeUndefined();
    // An entry written before the shared code (issue 50) still verifies: the same text and MAC.
    const old = 'A'.repeat(22);
    const before = { cookie: () => `${old}.${hmac(secretKey, 'known-device', 'ann', 'stamp-1', old)}` };
    expect(known.recognise(before, ann)).toBe(old);
    const remembered = new SignedCookieEntries(
      { secretKey, secure: false },
      kind({ label: 'two-factor-browser' }),
    );
    const oldRemembered = `99.${old}.${hmac(secretKey, 'two-factor-browser', 'ann', 'stamp-1', '99', old)}`;
    expect(remembered.signedEntries({ cookie: () => oldRemembered }, ann)).toHaveLength(1);
    // The second-factor kind signs under another label and cookie: one can never stand for the other.
    const secondFactor = new KnownBrowsers({ secretKey, secure: false }, 'second-factor');
    expect(secondFactor.recognise({ cookie: () => jar.cookie('idp.device') }, ann)).toBeUndefined();
  });
});

describe('cookie attributes (S26, one module)', () => {
  it('prefixes __Host- and adds Secure over TLS only', () => {
    expect(cookieName({ secure: true }, 'idp.session')).toBe('__Host-idp.session');
    expect(cookieName({ secure: false }, 'idp.session')).toBe('idp.session');
    expect(setCookieValue({ secure: false }, 'a', 'b', { httpOnly: false, sameSite: 'strict' })).toBe(
      'a=b; Path=/; SameSite=Strict',
    );
    expect(cookieOptions({ secure: true }, { httpOnly: true, maxAgeSeconds: 2 })).toEqual({
      path: '/',
      httpOnly: true,
      secure: true,
      sameSite: 'lax',
      maxAge: 2000,
    });
    expect(providerCookieOptions('/interaction/')).toEqual({
      path: '/interaction/',
      httpOnly: true,
      sameSite: 'lax',
      signed: true,
    });
  });
});
