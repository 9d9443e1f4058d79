/**
 * Migration 0032 (issue 53, ADR 0064) on SQLite and (when TEST_DATABASE_URL is set) PostgreSQL: a provider stored
 * before it keeps its settings, has its method chosen by discovery (none set, none in use yet), and gets its
 * `private_key_jwt` key pair the first time one is asked for — the private half sealed, the same one after.
 */
import { randomBytes } from 'node:crypto';
import { Migrator } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { IdentityProviderRepository } from '../identity-provider.repository.js';
import { migrateToLatest, provider } from '../migrator.js';
import { SecretBox } from '../secret-box.js';
import { openTestDatabase, SQL_ENGINES } from '../../testing/backends.js';

for (const { sql: kind, skip } of SQL_ENGINES) {
  describe.skipIf(skip)(`migration 0032 (${kind})${skip ? ` — skipped: ${skip}` : ''}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('keeps an earlier provider, its method chosen by discovery, its key pair made once when first asked for', async () => {
      const database = await openTestDatabase(kind, 'm32', cleanups);
      const all = await provider(database).getMigrations();
      const before = Object.fromEntries(Object.entries(all).filter(([name]) => name < '0032'));
      const { error } = await new Migrator({
        db: database.db,
        provider: { getMigrations: () => Promise.resolve(before) },
        allowUnorderedMigrations: true,
        ...(database.schema ? { migrationTableSchema: database.schema } : {}),
      }).migrateToLatest();
      expect(error).toBeUndefined();
      const secrets = new SecretBox(randomBytes(32));
      await database.db
        .insertInto('identity_providers')
        .values({
          id: 'contoso',
          name: 'Contoso',
          issuer: 'https://id.contoso.example',
          client_id: 'hr-identity',
          client_secret_enc: secrets.encrypt('the-secret'),
          partner_id: null,
          button_label: null,
          created_at: 1,
          updated_at: 1,
        })
        .execute();

      await migrateToLatest(database);
      const providers = new IdentityProviderRepository(database.db, secrets);
      expect(await providers.findById('contoso')).toMatchObject({
        clientId: 'hr-identity',
        clientSecret: 'the-secret',
        tokenAuthMethod: undefined,
        tokenAuthMethodInUse: undefined,
      });
      const [first, second] = await Promise.all([
        providers.signingKey('contoso'),
        providers.signingKey('contoso'),
      ]);
      expect(first!.publicJwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
      expect(second).toEqual(first);
      expect(await providers.signingKey('contoso')).toEqual(first);
      const row = await database.db
        .selectFrom('identity_providers')
        .select(['signing_key_enc', 'signing_public_jwk'])
        .where('id', '=', 'contoso')
        .executeTakeFirstOrThrow();
      expect(row.signing_key_enc).not.toContain(first!.privateJwk.d!);
      expect(row.signing_public_jwk).not.toContain('"d"');
      await providers.recordMethodInUse('contoso', 'client_secret_post');
      expect((await providers.findById('contoso'))?.tokenAuthMethodInUse).toBe('client_secret_post');
      expect(await providers.signingKey('nobody')).toBeUndefined();
    });
  });
}
