import type { Kysely } from 'kysely';

// Issue 52 (ADR 0062): the console disables an application (OIDC client) or an upstream provider without deleting
// it, so its settings, links and audit stay and it can be enabled again. A disabled client is unknown to the OIDC
// provider (no authorization, no token); a disabled upstream offers no button and starts no sign-in.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('oidc_clients')
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('identity_providers')
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
