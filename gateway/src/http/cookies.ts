import type { Response } from 'express';
import type { GatewayConfig } from '../config.js';

export { readCookie } from '../infra/read-cookie.js';

/** Cookie names; `__Host-` prefix whenever the site is served over TLS (S26). */
export interface CookieNames {
  session: string;
  antiforgery: string;
  bucket: string;
}

/** The agreed names: `idp.session`, `idp.x-csrf-token-value`, `idp.bucket` (prefixed `__Host-` over TLS). */
export function cookieNames(config: Pick<GatewayConfig, 'secure'>): CookieNames {
  const prefix = config.secure ? '__Host-' : '';
  return {
    session: `${prefix}idp.session`,
    antiforgery: `${prefix}idp.x-csrf-token-value`,
    bucket: `${prefix}idp.bucket`,
  };
}

/** Sets a cookie with the attributes S26 asks for: Path=/, no Domain, SameSite, Secure behind TLS. */
export function setCookie(
  res: Response,
  config: Pick<GatewayConfig, 'secure'>,
  name: string,
  value: string,
  options: { httpOnly: boolean; maxAgeMs?: number; sameSite?: 'lax' | 'strict' },
): void {
  res.cookie(name, value, {
    path: '/',
    httpOnly: options.httpOnly,
    secure: config.secure,
    sameSite: options.sameSite ?? 'lax',
    ...(options.maxAgeMs !== undefined ? { maxAge: options.maxAgeMs } : {}),
  });
}

/** Removes a cookie set by {@link setCookie}. */
export function clearCookie(res: Response, config: Pick<GatewayConfig, 'secure'>, name: string): void {
  res.clearCookie(name, { path: '/', secure: config.secure, sameSite: 'lax' });
}
