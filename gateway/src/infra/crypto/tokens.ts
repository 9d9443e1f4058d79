import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Random bytes drawn from the CSPRNG at once, then handed out in order, each byte once. */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

/**
 * `bytes` fresh random bytes from the CSPRNG (OpenSSL's, through Node's `randomBytes`), taken from a pool drawn
 * 4 KiB at a time: one call costs 6–10 µs on this machine kind whatever its size, and a sign-in asks for four
 * (the new session id, its anti-forgery token and state, the known-device cookie), a page's nonce one more. As
 * Node's own `randomUUID` does, the pool is drawn ahead; a byte is never handed out twice, and a request of more
 * than the pool holds is drawn on its own.
 */
export function randomFrom(bytes: number): Buffer {
  if (bytes > POOL_BYTES) return randomBytes(bytes);
  if (poolOffset + bytes > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  // A view of the pool: the pool is replaced, never written again, so the bytes stay as they are.
  const view = pool.subarray(poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return view;
}

/** A random identifier of `bytes` bytes from the CSPRNG, base64url (16 bytes = 128 bits: S25). */
export function randomToken(bytes = 32): string {
  return randomFrom(bytes).toString('base64url');
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
