/**
 * Migration 0025 on a database where a vendor account gave itself local credentials (issue 48, ADR 0041): the
 * account is marked as its provider's, its password, e-mail, passkeys, second factor, recovery codes, remembered
 * browsers and one-time tokens are gone, its stamp changed, and one audit event says what was removed; a local
 * account and a vendor account with nothing to remove are left alone. On SQLite and (when TEST_DATABASE_URL is set)
 * PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { Migrator, sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest, provider } from '../migrator.js';
import { createStore } from '../store.js';
import { openTestDatabase, SQL_ENGINES } from '../../testing/backends.js';

for (const { sql: kind, skip } of SQL_ENGINES) {
  describe.skipIf(skip)(`migration 0025 (${kind})${skip ? ` — skipped: ${skip}` : ''}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it("S35 removes a vendor account's local credentials (password, passkey, second factor, …) with one audit event, and marks it as its provider's", async () => {
      const database = await openTestDatabase(kind, 'm25', cleanups);
      // The schema as it was before 0025.
      const migrator = new Migrator({
        db: database.db,
        provider: provider(database),
        allowUnorderedMigrations: true,
        ...(database.schema ? { migrationTableSchema: database.schema } : {}),
      });
      const { error } = await migrator.migrateTo('0024-remembered-browsers');
      expect(error).toBeUndefined();
      const db = database.db as unknown as Kysely<unknown>;
      const user = (id: string, hash: string | null, email: string | null) =>
        sql`insert into users (id, username, username_normalized, email, email_normalized, display_name, password_hash, password_changed_at, roles, security_stamp, created_at, updated_at)
          values (${id}, ${id}, ${id.toUpperCase()}, ${email}, ${email?.toUpperCase() ?? null}, ${id}, ${hash}, ${hash ? 1 : null}, '["VENDOR_SUPPORT"]', ${`stamp-${id}`}, 0, 0)`.execute(
          db,
        );
      await sql`insert into identity_providers (id, name, issuer, client_id, client_secret_enc, vendor, roles, created_at, updated_at)
        values ('contoso', 'Contoso Support', 'https://id.contoso.example', 'hr', 'sealed', 1, '["VENDOR_SUPPORT"]', 0, 0),
               ('social', 'Social ID', 'https://id.social.example', 'hr', 'sealed', 0, '[]', 0, 0)`.execute(
        db,
      );
      await user('vera', '$argon2id$old-hash', 'vera@contoso.example');
      await user('quiet', null, null);
      await user('ann', '$argon2id$ann-hash', 'ann@example.test');
      await sql`insert into external_logins (issuer, subject, user_id, vendor_id, created_at)
        values ('https://id.contoso.example', 'sub-vera', 'vera', 'contoso', 0),
               ('https://id.contoso.example', 'sub-quiet', 'quiet', 'contoso', 0),
               ('https://id.social.example', 'sub-ann', 'ann', 'social', 0)`.execute(db);
      await sql`insert into webauthn_credentials (id, user_id, public_key, display_name, created_at)
        values ('cred-vera', 'vera', 'pk', 'Laptop', 0), ('cred-ann', 'ann', 'pk', 'Phone', 0)`.execute(db);
      await sql`insert into second_factors (user_id, totp_secret_enc, enabled, preferred_method, updated_at, pin_enabled)
        values ('vera', 'sealed', 1, 'pin', 0, 1)`.execute(db);
      await sql`insert into recovery_codes (id, user_id, code_hash, created_at)
        values ('rc1', 'vera', 'h1', 0), ('rc2', 'vera', 'h2', 0)`.execute(db);
      await sql`insert into remembered_browsers (entry_key, handle, user_id, stamp_hash, remembered_at, expires_at)
        values ('k1', 'h1', 'vera', 's', 0, ${Date.now() + 60_000})`.execute(db);
      await sql`insert into one_time_tokens (id, token_hash, purpose, user_id, expires_at, created_at)
        values ('t1', 'th1', 'password-reset', 'vera', ${Date.now() + 60_000}, 0)`.execute(db);

      await migrateToLatest(database);
      const store = createStore(database, randomBytes(32));

      const vera = await store.users.findById('vera');
      expect(vera).toMatchObject({ vendorId: 'contoso', passwordHash: null, email: null });
      expect(vera?.securityStamp).not.toBe('stamp-vera');
      expect(await store.users.findByLogin('vera@contoso.example')).toBeUndefined();
      expect(await store.passkeys.listForUser('vera')).toEqual([]);
      expect(await store.users.hasSecondFactor('vera')).toBe(false);
      expect(await store.recoveryCodes.remaining('vera')).toBe(0);
      const left = await sql<{ n: number | string }>`select
          (select count(*) from remembered_browsers where user_id = 'vera')
        + (select count(*) from one_time_tokens where user_id = 'vera')
        + (select count(*) from second_factors where user_id = 'vera') as n`.execute(db);
      expect(Number(left.rows[0]!.n)).toBe(0);
      const veraEvents = await store.audit.list({ userId: 'vera' });
      expect(veraEvents).toHaveLength(1);
      expect(veraEvents[0]).toMatchObject({
        kind: 'vendor.local-credentials-removed',
        data: {
          provider: 'contoso',
          removed: {
            password: true,
            email: true,
            passkeys: 1,
            secondFactor: true,
            recoveryCodes: 2,
            rememberedBrowsers: 1,
            oneTimeTokens: 1,
          },
        },
      });

      // A vendor account with nothing to remove is marked, not touched; a local account is neither.
      const quiet = await store.users.findById('quiet');
      expect(quiet).toMatchObject({ vendorId: 'contoso', securityStamp: 'stamp-quiet' });
      expect(await store.audit.list({ userId: 'quiet' })).toEqual([]);
      const ann = await store.users.findById('ann');
      expect(ann).toMatchObject({
        passwordHash: '$argon2id$ann-hash',
        email: 'ann@example.test',
        securityStamp: 'stamp-ann',
      });
      expect(ann?.vendorId).toBeUndefined();
      expect(await store.passkeys.listForUser('ann')).toHaveLength(1);
      expect(await store.audit.list({ userId: 'ann' })).toEqual([]);
      expect((await store.users.vendorAccountsOf('contoso')).map((u) => u.id).sort()).toEqual([
        'quiet',
        'vera',
      ]);
    });
  });
}
