import type { Response } from 'express';
import type { GatewayConfig } from '../config.js';
import { cookieName, cookieOptions } from '../infra/cookie-attributes.js';

export { readCookie } from '../infra/read-cookie.js';

/** Cookie names; `__Host-` prefix whenever the site is served over TLS (S26). */
export interface CookieNames {
  session: string;
  antiforgery: string;
  bucket: string;
}

/** The agreed names: `idp.session`, `idp.x-csrf-token-value`, `idp.bucket` (prefixed `__Host-` over TLS). */
export function cookieNames(config: Pick<GatewayConfig, 'secure'>): CookieNames {
  return {
    session: cookieName(config, 'idp.session'),
    antiforgery: cookieName(config, 'idp.x-csrf-token-value'),
    bucket: cookieName(config, 'idp.bucket'),
  };
}

/**
 * Sets a cookie with the attributes S26 asks for (`infra/cookie-attributes.ts`: Path=/, no Domain, SameSite,
 * Secure behind TLS). `raw` writes the value as it is, not URL-encoded (the culture cookie's `c=…|uic=…`).
 */
export function setCookie(
  res: Response,
  config: Pick<GatewayConfig, 'secure'>,
  name: string,
  value: string,
  options: { httpOnly: boolean; maxAgeMs?: number; sameSite?: 'lax' | 'strict'; raw?: boolean },
): void {
  res.cookie(name, value, {
    ...cookieOptions(config, {
      httpOnly: options.httpOnly,
      sameSite: options.sameSite,
      maxAgeSeconds: options.maxAgeMs === undefined ? undefined : options.maxAgeMs / 1000,
    }),
    ...(options.raw ? { encode: String } : {}),
  });
}
