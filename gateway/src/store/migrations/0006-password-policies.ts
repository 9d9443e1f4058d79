import type { Kysely } from 'kysely';

// A partner's password policy (ADR 0010): its rule overrides (JSON of shared-contracts' PasswordRules, partial) and
// the password's maximum age in days (0 = never). A row of its own keeps the partners table and its repository as
// they are; no row means the NIST defaults and no expiry.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('password_policies')
    .addColumn('partner_id', 'text', (c) => c.primaryKey().references('partners.id').onDelete('cascade'))
    .addColumn('rules', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('max_age_days', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
