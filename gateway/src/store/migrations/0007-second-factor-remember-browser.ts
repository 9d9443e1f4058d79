import type { Kysely } from 'kysely';

// "Remember this browser" for the second factor (ADR 0008): a partner switch, off by default. Named to sort after
// 0007-second-factor-methods, its sibling of the same change.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('partners')
    .addColumn('remember_two_factor_browser', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
