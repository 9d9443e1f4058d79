import type { Kysely } from 'kysely';

// Issue 48 (ADR 0042): a passkey, a second-factor method or recovery codes added by a session that had not proved a
// second factor are bound to the account's security stamp, as links are (0021): the stamp they were added under is
// kept beside them, and a new stamp (a password reset or change, `sessions revoke`, disabling) removes them. Null:
// added by a session that proved a second factor, or before this migration (not bound).
// - webauthn_credentials.bound_stamp, recovery_codes.bound_stamp: per row.
// - second_factors.{totp,sms,pin}_bound_stamp: per method of the account's one row.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webauthn_credentials').addColumn('bound_stamp', 'text').execute();
  await db.schema.alterTable('recovery_codes').addColumn('bound_stamp', 'text').execute();
  for (const column of ['totp_bound_stamp', 'sms_bound_stamp', 'pin_bound_stamp'])
    await db.schema.alterTable('second_factors').addColumn(column, 'text').execute();
}
