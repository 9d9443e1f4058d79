import type { Kysely } from 'kysely';

// A partner's idle sign-out (SilentLogout, ADR 0020): after this many minutes without input in any tab the shell
// signs the user out without a prompt. 0 = off, the default.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('partners')
    .addColumn('idle_sign_out_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
