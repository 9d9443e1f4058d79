import { afterEach, describe, expect, it, vi } from 'vitest';
import { ensureAntiforgeryToken, readAntiforgeryToken, readAntiforgeryTokenAsync } from './antiforgery.js';
import { apiClientConfig, configureApiClient } from './client-config.js';

afterEach(() => vi.unstubAllGlobals());

/** A response whose body records whether it was cancelled (an unread body holds its connection in Chromium). */
function trackedResponse(body: string, status: number) {
  const track = { cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(body));
      controller.close();
    },
    cancel() {
      track.cancelled = true;
    },
  });
  return {
    response: new Response(stream, { status, headers: { 'content-type': 'application/json' } }),
    track,
  };
}

describe('anti-forgery token (SPEC.md §4 start-up, §9 cookie)', () => {
  it('reads the cookie whose name ends with x-csrf-token-value, whatever its prefix', () => {
    expect(readAntiforgeryToken('a=1; __Host-idp.x-csrf-token-value=abc%2E1; b=2')).toBe('abc.1');
    expect(readAntiforgeryToken('a=1')).toBeUndefined();
  });

  it('takes the token from the cookie the call set, and cancels the unread body', async () => {
    const document = { cookie: '' };
    vi.stubGlobal('document', document);
    const { response, track } = trackedResponse('{"token":"from-body"}', 200);
    const fetchStub = vi.fn(() => {
      document.cookie = 'idp.x-csrf-token-value=from-cookie';
      return Promise.resolve(response);
    });
    expect(await ensureAntiforgeryToken(fetchStub as unknown as typeof fetch)).toBe('from-cookie');
    expect(track.cancelled).toBe(true);
  });

  it('falls back to the body when the browser refused the cookie', async () => {
    vi.stubGlobal('document', { cookie: '' });
    const { response } = trackedResponse('{"token":"from-body"}', 200);
    expect(await ensureAntiforgeryToken(() => Promise.resolve(response))).toBe('from-body');
  });

  it('answers undefined on a failed call and still releases its body', async () => {
    vi.stubGlobal('document', { cookie: '' });
    const { response, track } = trackedResponse('{}', 503);
    expect(await ensureAntiforgeryToken(() => Promise.resolve(response))).toBeUndefined();
    expect(track.cancelled).toBe(true);
  });

  it('sends the locale headers every other call sends (SPEC.md §7)', async () => {
    vi.stubGlobal('document', { cookie: '' });
    const before = { ...apiClientConfig() };
    configureApiClient({
      supportedLocales: ['en-GB', 'de'],
      defaultLocale: 'de',
      currentLocale: () => 'fr-CA',
    });
    try {
      const fetchStub = vi.fn((_url: string, _init: RequestInit) =>
        Promise.resolve(Response.json({ token: 't' })),
      );
      expect(await ensureAntiforgeryToken(fetchStub as unknown as typeof fetch)).toBe('t');
      const headers = new Headers(fetchStub.mock.calls[0]![1].headers);
      expect(headers.get('x-supported-locales')).toBe('en-GB,de');
      expect(headers.get('x-default-locale')).toBe('de');
      expect(headers.get('accept-language')).toBe('fr-CA');
      expect(headers.get('x-requested-with')).toBe('XMLHttpRequest');
    } finally {
      configureApiClient(before);
    }
  });

  it('does not call at all when the cookie is already there', async () => {
    vi.stubGlobal('document', { cookie: 'idp.x-csrf-token-value=present' });
    const fetchStub = vi.fn();
    expect(await ensureAntiforgeryToken(fetchStub as unknown as typeof fetch)).toBe('present');
    expect(fetchStub).not.toHaveBeenCalled();
  });

  describe('read through the Cookie Store API where the browser has it', () => {
    /** document.cookie as a getter that fails the test when read: the asynchronous path must not touch it. */
    function documentNotRead() {
      vi.stubGlobal('document', {
        get cookie(): string {
          throw new Error('document.cookie read');
        },
      });
    }

    it("takes the token from the store's cookies, decoded, without reading document.cookie", async () => {
      documentNotRead();
      vi.stubGlobal('cookieStore', {
        getAll: () =>
          Promise.resolve([
            { name: 'a', value: '1' },
            { name: '__Host-idp.x-csrf-token-value', value: 'abc%2E1' },
          ]),
      });
      expect(await readAntiforgeryTokenAsync()).toBe('abc.1');
    });

    it('does not call the Antiforgery endpoint when the store has the cookie', async () => {
      documentNotRead();
      vi.stubGlobal('cookieStore', {
        getAll: () => Promise.resolve([{ name: 'idp.x-csrf-token-value', value: 'present' }]),
      });
      const fetchStub = vi.fn();
      expect(await ensureAntiforgeryToken(fetchStub as unknown as typeof fetch)).toBe('present');
      expect(fetchStub).not.toHaveBeenCalled();
    });

    it('falls back to document.cookie when the store fails or is absent', async () => {
      vi.stubGlobal('document', { cookie: 'idp.x-csrf-token-value=from-document' });
      vi.stubGlobal('cookieStore', { getAll: () => Promise.reject(new Error('blocked')) });
      expect(await readAntiforgeryTokenAsync()).toBe('from-document');
      vi.stubGlobal('cookieStore', undefined);
      expect(await readAntiforgeryTokenAsync()).toBe('from-document');
    });
  });
});
