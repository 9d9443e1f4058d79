import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The `kv` row holding the keys' fingerprint; it never expires (the largest safe integer as its expiry). */
export const KEY_FINGERPRINT_KV_KEY = 'gateway:key-fingerprint';
const NEVER = Number.MAX_SAFE_INTEGER;

/**
 * A fingerprint of SECRET_KEY and DATA_ENCRYPTION_KEY: an HMAC-SHA256 of a fixed label under each key. It tells two
 * key sets apart without revealing either (an HMAC output does not give back its key), so it may sit in the
 * database beside the data the keys protect.
 */
export function keyFingerprint(secretKey: Buffer, dataEncryptionKey: Buffer): string {
  const of = (key: Buffer) =>
    createHmac('sha256', key).update('hr-identity key fingerprint v1').digest('hex').slice(0, 32);
  return `v1:${of(secretKey)}:${of(dataEncryptionKey)}`;
}

/** Raised when this process's keys are not the ones the database was first used with. */
export class KeyMismatchError extends Error {
  constructor() {
    super(
      'SECRET_KEY / DATA_ENCRYPTION_KEY differ from the keys this database was first started with (their fingerprint in the kv table does not match): give every replica and CLI the same keys',
    );
    this.name = 'KeyMismatchError';
  }
}

/**
 * Stores the fingerprint on the first start against a database and compares it on every later one: a replica
 * started with other keys than its siblings refuses to start instead of failing every token they made. Insert first
 * (no overwrite), then read: of two replicas starting together on an empty database, the first insert wins and the
 * other compares against it.
 */
export async function checkKeyFingerprint(
  db: Kysely<Database>,
  fingerprint: string,
): Promise<'stored' | 'matched'> {
  const inserted = await db
    .insertInto('kv')
    .values({ key: KEY_FINGERPRINT_KV_KEY, value: fingerprint, expires_at: NEVER })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return 'stored';
  const row = await db
    .selectFrom('kv')
    .select('value')
    .where('key', '=', KEY_FINGERPRINT_KV_KEY)
    .executeTakeFirst();
  if (row?.value !== fingerprint) throw new KeyMismatchError();
  return 'matched';
}
