import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random identifier of `bytes` bytes from the CSPRNG, base64url (16 bytes = 128 bits: S25). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** SHA-256 hex of a value; how one-time tokens, recovery codes and session ids are kept at rest. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** HMAC-SHA256 base64url of the parts joined by "|". */
export function hmac(key: Buffer, ...parts: string[]): string {
  return createHmac('sha256', key).update(parts.join('|')).digest('base64url');
}

/** Constant-time comparison of two strings. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
