import { ACCOUNT_API_BASE, ANTIFORGERY_COOKIE_SUFFIX } from '../constants.js';
import { accountCallHeaders } from './client-config.js';

/**
 * Reads the anti-forgery token from the cookie whose name ends with `x-csrf-token-value` (SPEC.md §9). The name
 * differs by transport (`__Host-` prefix over TLS), so the suffix is what the client matches.
 */
export function readAntiforgeryToken(
  cookieString: string = globalThis.document?.cookie ?? '',
): string | undefined {
  for (const part of cookieString.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim();
    if (name.toLowerCase().endsWith(ANTIFORGERY_COOKIE_SUFFIX)) {
      const value = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(value) || undefined;
      } catch {
        return value || undefined;
      }
    }
  }
  return undefined;
}

/** The part of the Cookie Store API the client reads with. */
interface CookieStoreReader {
  getAll(): Promise<readonly { name: string; value?: string }[]>;
}

/**
 * {@link readAntiforgeryToken} without holding up the page: `document.cookie` is a synchronous round trip to the
 * browser process (0.1–4 ms a read on a two-core machine, nine reads on a sign-in page's load: issue 10, Total
 * Blocking Time), the Cookie Store API answers the same cookies asynchronously. Where the browser lacks it (and in
 * tests) the cookie string is read as before. Read at each call, never cached: another tab's sign-in can change
 * the token.
 */
export async function readAntiforgeryTokenAsync(): Promise<string | undefined> {
  const store = (globalThis as { cookieStore?: CookieStoreReader }).cookieStore;
  if (typeof store?.getAll !== 'function') return readAntiforgeryToken();
  try {
    const cookies = await store.getAll();
    return readAntiforgeryToken(cookies.map((cookie) => `${cookie.name}=${cookie.value ?? ''}`).join('; '));
  } catch {
    return readAntiforgeryToken();
  }
}

/** The call that issues (or refreshes) the anti-forgery cookie and answers `{token}`. */
export const ANTIFORGERY_URL = `${ACCOUNT_API_BASE}Antiforgery`;

let pending: Promise<string | undefined> | undefined;

/**
 * Returns the anti-forgery token, fetching one first when the cookie is absent (SPEC.md §4 "Start-up") with the
 * headers of every account call, the locale ones included. Parallel callers share one request.
 */
export async function ensureAntiforgeryToken(
  fetchImpl: typeof fetch = globalThis.fetch,
): Promise<string | undefined> {
  const existing = await readAntiforgeryTokenAsync();
  if (existing) return existing;
  pending ??= (async () => {
    try {
      const response = await fetchImpl(ANTIFORGERY_URL, {
        method: 'GET',
        credentials: 'same-origin',
        // The same headers as every other call (SPEC.md §7), the locale ones included.
        headers: accountCallHeaders(),
      });
      // The cookie is the source of truth; the body is a fallback for a cookie the browser refused. A body left
      // unread keeps its connection busy in Chromium, so it is always either read or cancelled.
      const fromCookie = await readAntiforgeryTokenAsync();
      if (fromCookie || !response.ok) {
        await response.body?.cancel().catch(() => undefined);
        return fromCookie;
      }
      const body = (await response.json()) as { token?: unknown };
      return typeof body.token === 'string' ? body.token : undefined;
    } catch {
      return undefined;
    } finally {
      pending = undefined;
    }
  })();
  return pending;
}
