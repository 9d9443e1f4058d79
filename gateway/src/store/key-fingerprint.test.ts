/**
 * A replica started with other keys than the ones its database was first used with refuses to start (issue 41):
 * its anti-forgery tokens and cookies would fail on every other replica, and it could not read what they encrypted.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { openRuntime } from '../runtime.js';
import { BACKENDS, openTestBackends } from '../testing/backends.js';
import {
  checkKeyFingerprint,
  keyFingerprint,
  KeyMismatchError,
  KEY_FINGERPRINT_KV_KEY,
} from './key-fingerprint.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const key = () => randomBytes(32);

describe('key fingerprint', () => {
  it('is an HMAC of a label: stable for the same keys, different for others, never the keys themselves', () => {
    const secret = key();
    const encryption = key();
    const fingerprint = keyFingerprint(secret, encryption);
    expect(keyFingerprint(secret, encryption)).toBe(fingerprint);
    expect(keyFingerprint(secret, key())).not.toBe(fingerprint);
    expect(keyFingerprint(key(), encryption)).not.toBe(fingerprint);
    expect(fingerprint).not.toContain(secret.toString('hex').slice(0, 16));
    expect(fingerprint).not.toContain(encryption.toString('hex').slice(0, 16));
  });

  describe.each(BACKENDS)('on $name', ({ name, skip }) => {
    it.skipIf(skip)(
      `is stored on the first start and must match on every later one${skip ? ` — skipped: ${skip}` : ''}`,
      async () => {
        const backends = await openTestBackends({ sql: name === 'sqlite' ? 'sqlite' : 'postgres' });
        cleanups.push(() => backends.close());
        const { db } = backends.store.database;
        const fingerprint = keyFingerprint(key(), key());
        expect(await checkKeyFingerprint(db, fingerprint)).toBe('stored');
        expect(await checkKeyFingerprint(db, fingerprint)).toBe('matched');
        await expect(checkKeyFingerprint(db, keyFingerprint(key(), key()))).rejects.toThrow(KeyMismatchError);
        // The first start's fingerprint stays: a refused start does not overwrite it.
        const row = await db
          .selectFrom('kv')
          .select('value')
          .where('key', '=', KEY_FINGERPRINT_KV_KEY)
          .executeTakeFirst();
        expect(row?.value).toBe(fingerprint);
      },
    );
  });

  it('a replica with other keys than the database was first started with does not start', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'key-fingerprint-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { DATA_DIR: dataDir, SEED_DEMO_DATA: 'false', DATA_ENCRYPTION_KEY: key().toString('hex') };
    const logger = pino({ level: 'silent' });
    const first = await openRuntime(loadConfig({ ...env, SECRET_KEY: key().toString('hex') }), logger);
    await first.close();
    await expect(
      openRuntime(loadConfig({ ...env, SECRET_KEY: key().toString('hex') }), logger),
    ).rejects.toThrow(
      /SECRET_KEY \/ DATA_ENCRYPTION_KEY differ from the keys this database was first started with/,
    );
  });
});
