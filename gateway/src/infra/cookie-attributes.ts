/**
 * Cookie attributes, built in one place (S26): `Path=/`, no `Domain`, `SameSite`, `Secure` and the `__Host-` name
 * prefix whenever the site is served over TLS. Every cookie the gateway sets takes its attributes from here: the
 * Express ones (`http/cookies.ts`), the session cookie and the signed-entry cookies (written as whole `Set-Cookie`
 * values through a `CookieJar`), and oidc-provider's.
 */

/** What the site says about its cookies: served over TLS or not (PUBLIC_URL is https). */
export interface CookieSite {
  secure: boolean;
}

/** How one cookie is used: read by the page or not, how strict, how long it lives (a session cookie without). */
export interface CookieUse {
  httpOnly: boolean;
  /** `lax` unless said: the cookie comes along on a top-level navigation from another site (sign-in links). */
  sameSite?: 'lax' | 'strict' | undefined;
  /** Seconds; none for a cookie that ends with the browser. */
  maxAgeSeconds?: number | undefined;
}

/** `name` with the `__Host-` prefix over TLS (the browser then refuses it without Secure, Path=/ and no Domain). */
export function cookieName(site: CookieSite, name: string): string {
  return `${site.secure ? '__Host-' : ''}${name}`;
}

/** The attributes as options of Express' `res.cookie`/`res.clearCookie` (`maxAge` in milliseconds there). */
export function cookieOptions(site: CookieSite, use: CookieUse) {
  return {
    path: '/',
    httpOnly: use.httpOnly,
    secure: site.secure,
    sameSite: use.sameSite ?? 'lax',
    ...(use.maxAgeSeconds !== undefined ? { maxAge: use.maxAgeSeconds * 1000 } : {}),
  } as const;
}

/** A whole `Set-Cookie` value: `name=value; Path=/; HttpOnly; SameSite=Lax; Secure; Max-Age=…`. */
export function setCookieValue(site: CookieSite, name: string, value: string, use: CookieUse): string {
  const sameSite = use.sameSite === 'strict' ? 'Strict' : 'Lax';
  return [
    `${name}=${value}`,
    'Path=/',
    ...(use.httpOnly ? ['HttpOnly'] : []),
    `SameSite=${sameSite}`,
    ...(site.secure ? ['Secure'] : []),
    ...(use.maxAgeSeconds !== undefined ? [`Max-Age=${Math.floor(use.maxAgeSeconds)}`] : []),
  ].join('; ');
}

/**
 * oidc-provider's cookie options (its `cookies.long`/`cookies.short`, and the session cookie it clears on
 * logout): HttpOnly, SameSite=Lax, signed with its keys, under `path`. `Secure` is the provider's to add from the
 * request (`ctx.secure`: behind the TLS proxy, `oidc/public-origin.ts`), so it is left out unless given.
 */
export function providerCookieOptions(path: string, secure?: boolean) {
  return {
    path,
    httpOnly: true,
    sameSite: 'lax',
    signed: true,
    ...(secure === undefined ? {} : { secure }),
  } as const;
}
