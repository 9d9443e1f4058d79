import type { Kysely } from 'kysely';

// Issue 39: a link made with the local password lives only as long as the credentials that made it. Each link keeps
// the account's security stamp at the moment it was made (at the end of a complete sign-in); a new password, a
// reset, `sessions revoke` or disabling rotates the stamp and so ends the link. Links stored before this migration
// have no stamp: they may have been made by the Link call that stored them before the second factor, so a login
// provider's identity is asked for the local password and factor once more (vendor accounts are not affected).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('external_logins').addColumn('security_stamp', 'text').execute();
}
