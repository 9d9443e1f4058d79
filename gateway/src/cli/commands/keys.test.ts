import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSigningKeys } from '../../oidc/signing-keys.js';
import type { OidcDatabase } from '../../oidc/types.js';
import { openAdminHarness, type AdminHarness } from '../../testing/admin-harness.js';

describe('admin keys', () => {
  let admin: AdminHarness;
  let db: Kysely<OidcDatabase>;
  beforeAll(async () => {
    admin = await openAdminHarness();
    db = admin.store.database.db as unknown as Kysely<OidcDatabase>;
  });
  afterAll(async () => {
    await admin.close();
  });

  it('rotate publishes a new generation that signs only after the grace period', async () => {
    const before = await loadSigningKeys(db);
    const out = (await admin.run('keys', 'rotate')).split('\n');
    const after = await loadSigningKeys(db);
    const fresh = after.filter((k) => !before.some((b) => b.kid === k.kid)).map((k) => k.kid);
    expect(fresh).toHaveLength(2);
    expect(out[0]).toMatch(
      new RegExp(`^new signing keys ${fresh.join(', ')} published; they sign from \\d{4}-\\d\\d-\\d\\dT`),
    );
    expect(out[1]).toBe(
      `running gateways re-read the keys every 30 s; ${after.length / 2} generations kept for verification`,
    );
    // Published now, but the current generation keeps signing until two key checks have passed.
    expect(after.slice(0, 2).map((k) => k.kid)).toEqual(before.slice(0, 2).map((k) => k.kid));
    expect((await loadSigningKeys(db, Date.now() + 61_000))[0]!.kid).toBe(fresh[0]);
  });

  it('rotate --now signs with the new generation at once', async () => {
    const out = await admin.run('keys', 'rotate', '--now');
    expect(out).toMatch(/published; they sign from the next key check\n/);
    const [newest] = await loadSigningKeys(db);
    expect(out).toContain(newest!.kid);
  });
});
