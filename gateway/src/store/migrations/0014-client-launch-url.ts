import type { Kysely } from 'kysely';

// The address where a relying party starts its own sign-in (OpenID Connect Registration's initiate_login_uri):
// the signed-in home lists the applications that have one, so "Continue" leads somewhere (ADR 0017).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oidc_clients').addColumn('initiate_login_uri', 'text').execute();
}
