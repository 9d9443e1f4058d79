import type { Kysely } from 'kysely';

// The SMS code and the e-mailed PIN as second factors (ADR 0008), and the partner-wide "2FA required" flag.
// - second_factors.sms_phone: the phone number the user proved at set-up (a code sent there was typed back); the
//   SMS method is on while it is set.
// - second_factors.pin_enabled: the e-mailed PIN is on (its set-up proved the user reads the account's address).
// - partners.require_two_factor: every user of the partner goes through the set-up wizard at the next sign-in.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('second_factors').addColumn('sms_phone', 'text').execute();
  await db.schema
    .alterTable('second_factors')
    .addColumn('pin_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('partners')
    .addColumn('require_two_factor', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
