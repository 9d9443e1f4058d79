/**
 * returnUrl safety (SECURITY-CHECKLIST S31; Duende CVE-2024-39694, Keycloak CVE-2024-8883).
 *
 * A returnUrl is followed only when it is a same-origin relative path, or an absolute URL that exactly starts
 * with one of the registered client URLs given by the caller (the server passes its OIDC clients' redirect
 * origins). Everything else is refused. The same function runs in the browser and on the server so the two can
 * never disagree.
 */

/** The default target when no (acceptable) returnUrl is given (SPEC.md §2). */
export const DEFAULT_RETURN_URL = '/';

// Control characters (incl. tab, CR, LF), backslashes and whitespace have no business in a path we redirect to:
// browsers strip or normalise them, which turns "/\evil" or "/\tevil" into "//evil".
// eslint-disable-next-line no-control-regex -- matching control characters is the point of this check
const FORBIDDEN_CHARACTERS = /[\u0000-\u001f\u007f\\\s]/;

function decodeRepeatedly(value: string): string | undefined {
  let current = value;
  for (let i = 0; i < 3; i += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return undefined;
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}

/**
 * True when `value` is a relative path on this origin that a browser cannot turn into another origin:
 * it starts with a single "/", has no second "/" or "\" right after it (also when percent-encoded), and has no
 * control characters, whitespace or backslashes anywhere (also when percent-encoded, once or twice).
 */
export function isSafeLocalPath(value: string): boolean {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return false;
  const decoded = decodeRepeatedly(value);
  if (decoded === undefined) return false;
  for (const candidate of [value, decoded]) {
    if (!candidate.startsWith('/')) return false;
    if (candidate.startsWith('//') || candidate.startsWith('/\\')) return false;
    if (FORBIDDEN_CHARACTERS.test(candidate)) return false;
  }
  // Final check with the URL parser: the path must stay on a made-up origin.
  try {
    const base = 'https://return-url.invalid';
    const parsed = new URL(value, base);
    return parsed.origin === base;
  } catch {
    return false;
  }
}

/**
 * True when `value` is an absolute http(s) URL without credentials whose origin and path start with one of the
 * registered client URLs (each an absolute URL, such as an OIDC client's redirect URI or its origin + "/").
 */
export function isRegisteredClientUrl(value: string, registeredUrls: readonly string[]): boolean {
  if (typeof value !== 'string' || FORBIDDEN_CHARACTERS.test(value)) return false;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  if (parsed.username || parsed.password) return false;
  return registeredUrls.some((registered) => {
    let allowed: URL;
    try {
      allowed = new URL(registered);
    } catch {
      return false;
    }
    if (allowed.origin !== parsed.origin) return false;
    const allowedPath = allowed.pathname.endsWith('/') ? allowed.pathname : `${allowed.pathname}`;
    return (
      parsed.pathname === allowed.pathname ||
      parsed.pathname.startsWith(allowedPath.endsWith('/') ? allowedPath : `${allowedPath}/`)
    );
  });
}

/**
 * Returns `value` when it is a safe local path or a registered client URL, otherwise the default ("/").
 * Undefined, null and empty values give the default too.
 */
export function safeReturnUrl(value: unknown, registeredUrls: readonly string[] = []): string {
  if (typeof value !== 'string' || value === '') return DEFAULT_RETURN_URL;
  if (isSafeLocalPath(value)) return value;
  if (isRegisteredClientUrl(value, registeredUrls)) return value;
  return DEFAULT_RETURN_URL;
}

/** True when `value` would be followed as given by {@link safeReturnUrl}. */
export function isAcceptableReturnUrl(value: string, registeredUrls: readonly string[] = []): boolean {
  return isSafeLocalPath(value) || isRegisteredClientUrl(value, registeredUrls);
}

/**
 * The returnUrl a page or call was given (SPEC.md §2: also spelled `ReturnUrl`; default "/"), not yet checked:
 * pass it through {@link safeReturnUrl} before following it. Takes a page's search params or a parsed query.
 */
export function returnUrlOf(query: URLSearchParams | Readonly<Record<string, unknown>>): string {
  const read = (name: string): unknown => (query instanceof URLSearchParams ? query.get(name) : query[name]);
  for (const name of ['returnUrl', 'ReturnUrl']) {
    const value = read(name);
    if (typeof value === 'string' && value !== '') return value;
  }
  return DEFAULT_RETURN_URL;
}

/**
 * `path` with `returnUrl` appended as a query parameter, percent-encoded:
 * `withReturnUrl('/account/login', '/connect/x?a=1')` is `/account/login?returnUrl=%2Fconnect%2Fx%3Fa%3D1`.
 * Appends with "&" when `path` already has a query. The one way pages and calls carry a returnUrl along (SPEC.md §2).
 */
export function withReturnUrl(path: string, url: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}returnUrl=${encodeURIComponent(url)}`;
}
