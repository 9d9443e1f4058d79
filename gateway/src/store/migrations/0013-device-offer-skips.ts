import type { Kysely } from 'kysely';

// The device offer a user skipped (SkipFido, ADR 0016): one row per user with the time of the last skip, so the
// sign-in asks again only after DEVICE_OFFER_SKIP_DAYS. The credentials themselves live in webauthn_credentials
// (0001), keyed by credential id and bound to one user.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('device_offer_skips')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('skipped_at', 'bigint', (c) => c.notNull())
    .execute();
}
