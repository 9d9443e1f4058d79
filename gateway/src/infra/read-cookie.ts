import type { IncomingMessage, ServerResponse } from 'node:http';

/** Each request's cookie values read so far, by header: a call reads the session, anti-forgery and culture cookies. */
const readSoFar = new WeakMap<object, { header: string; values: Map<string, string | undefined> }>();

/**
 * Reads one cookie from a request (its first occurrence), URL-decoded; undefined when absent or malformed. Works
 * on plain Node requests, so Express routes and oidc-provider's Koa handlers read cookies the same way. A value is
 * worked out once per request and header.
 */
export function readCookie(req: Pick<IncomingMessage, 'headers'>, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  let memo = readSoFar.get(req.headers);
  if (memo?.header !== header) readSoFar.set(req.headers, (memo = { header, values: new Map() }));
  if (memo.values.has(name)) return memo.values.get(name);
  const value = parseCookie(header, name);
  memo.values.set(name, value);
  return value;
}

function parseCookie(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Adds a `Set-Cookie` value to the response, replacing one of the same cookie name set earlier in the request. */
export function appendSetCookie(res: Pick<ServerResponse, 'getHeader' | 'setHeader'>, cookie: string): void {
  const existing = res.getHeader('set-cookie');
  const list = Array.isArray(existing) ? existing : existing ? [String(existing)] : [];
  const name = cookie.split('=')[0]!;
  res.setHeader('set-cookie', [...list.filter((c) => !c.startsWith(`${name}=`)), cookie]);
}
