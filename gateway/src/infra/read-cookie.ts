import type { IncomingMessage } from 'node:http';

/**
 * Reads one cookie from a request (its first occurrence), URL-decoded; undefined when absent or malformed. Works
 * on plain Node requests, so Express routes and oidc-provider's Koa handlers read cookies the same way.
 */
export function readCookie(req: Pick<IncomingMessage, 'headers'>, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
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
