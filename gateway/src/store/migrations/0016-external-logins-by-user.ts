import type { Kysely } from 'kysely';

// External identities (keyed by issuer and subject, S35) are listed per user on the account page and removed by
// unlinking: an index on user_id, and when the identity last signed in.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('external_logins').addColumn('last_used_at', 'bigint').execute();
  await db.schema.createIndex('external_logins_user_idx').on('external_logins').column('user_id').execute();
}
