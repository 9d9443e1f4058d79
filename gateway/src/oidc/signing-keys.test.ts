import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSigningKeys, nextKeyActivation, publicJwks, rotateSigningKeys } from './signing-keys.js';
import { openTempOidcStore, type TempOidcStore } from '../testing/oidc-harness.js';
import type { OidcDatabase } from './types.js';

describe('signing keys', () => {
  let temp: TempOidcStore;
  let db: Kysely<OidcDatabase>;

  beforeAll(async () => {
    temp = await openTempOidcStore('oidc-keys-');
    db = temp.db;
  });

  afterAll(async () => {
    await temp.close();
  });

  it('generates one RS256 and one ES256 key once, and every replica reads the same ones', async () => {
    const [a, b, c] = await Promise.all([loadSigningKeys(db), loadSigningKeys(db), loadSigningKeys(db)]);
    expect(a.map((k) => k.alg)).toEqual(['RS256', 'ES256']);
    expect(b.map((k) => k.kid)).toEqual(a.map((k) => k.kid));
    expect(c.map((k) => k.kid)).toEqual(a.map((k) => k.kid));
    expect((await loadSigningKeys(db)).map((k) => k.kid)).toEqual(a.map((k) => k.kid));
  });

  it('S41 rotation puts a new generation first, keeps the old ones for verification, retires beyond the limit', async () => {
    const original = await loadSigningKeys(db);
    const rotated = await rotateSigningKeys(db, 2);
    expect(rotated).toHaveLength(4);
    expect(rotated.slice(2).map((k) => k.kid)).toEqual(original.map((k) => k.kid));
    expect(rotated.slice(0, 2).map((k) => k.alg)).toEqual(['RS256', 'ES256']);
    const again = await rotateSigningKeys(db, 2);
    expect(again).toHaveLength(4);
    expect(again.map((k) => k.kid)).not.toContain(original[0]!.kid);
    expect((await loadSigningKeys(db)).map((k) => k.kid)).toEqual(again.map((k) => k.kid));
  });

  it('S41 a delayed rotation publishes the new keys at once but signs with them only from the activation time', async () => {
    const now = Date.now();
    const before = await loadSigningKeys(db, now);
    const rotated = await rotateSigningKeys(db, { activateAfterMs: 60_000, now });
    const fresh = rotated.filter((k) => !before.some((b) => b.kid === k.kid));
    expect(fresh).toHaveLength(2);
    // Published (in the list) but after the active keys: oidc-provider signs with the first key of an algorithm.
    expect(rotated.slice(0, 2).map((k) => k.kid)).toEqual(before.slice(0, 2).map((k) => k.kid));
    expect(rotated.slice(-2).map((k) => k.kid)).toEqual(fresh.map((k) => k.kid));
    expect(await nextKeyActivation(db, now)).toBe(now + 60_000);
    const later = await loadSigningKeys(db, now + 60_001);
    expect(later.slice(0, 2).map((k) => k.kid)).toEqual(fresh.map((k) => k.kid));
    expect(await nextKeyActivation(db, now + 60_001)).toBeUndefined();
  });

  it('publishes no private key material', async () => {
    for (const key of publicJwks(await loadSigningKeys(db))) {
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key).not.toHaveProperty(secret);
    }
  });
});
