import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

type Method = 'authenticator' | 'sms' | 'pin';

/**
 * Ways in added without a proved second factor (migration 0026, ADR 0042): passkeys, second-factor methods and
 * recovery codes bound to the account's security stamp. They live only while the stamp they were added under is the
 * account's: a new stamp removes them ({@link dropBoundAdditions}).
 */

/** Whether the account has any bound way in left (an addition made now is then bound too: ADR 0042). */
export async function hasBoundAdditions(db: Kysely<Database>, userId: string): Promise<boolean> {
  const passkey = await db
    .selectFrom('webauthn_credentials')
    .select('id')
    .where('user_id', '=', userId)
    .where('bound_stamp', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  if (passkey) return true;
  const method = await db
    .selectFrom('second_factors')
    .select('user_id')
    .where('user_id', '=', userId)
    .where((eb) =>
      eb.or([
        eb('totp_bound_stamp', 'is not', null),
        eb('sms_bound_stamp', 'is not', null),
        eb('pin_bound_stamp', 'is not', null),
      ]),
    )
    .executeTakeFirst();
  if (method) return true;
  const codes = await db
    .selectFrom('recovery_codes')
    .select('id')
    .where('user_id', '=', userId)
    .where('bound_stamp', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return codes !== undefined;
}

/**
 * Removes every bound way in of the account whose stamp is not `stamp` (the account's new one): passkeys, recovery
 * codes, and each second-factor method (the row goes when no method is left; the preferred method moves to one that
 * is). Returns what was removed, for the audit.
 */
export async function dropBoundAdditions(
  db: Kysely<Database>,
  userId: string,
  stamp: string,
  at: number,
): Promise<{ passkeys: number; methods: Method[]; recoveryCodes: number }> {
  return db.transaction().execute(async (trx) => {
    const passkeys = await trx
      .deleteFrom('webauthn_credentials')
      .where('user_id', '=', userId)
      .where('bound_stamp', 'is not', null)
      .where('bound_stamp', '!=', stamp)
      .executeTakeFirst();
    const codes = await trx
      .deleteFrom('recovery_codes')
      .where('user_id', '=', userId)
      .where('bound_stamp', 'is not', null)
      .where('bound_stamp', '!=', stamp)
      .executeTakeFirst();
    const row = await trx
      .selectFrom('second_factors')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const methods: Method[] = [];
    if (row) {
      const stale = (bound: string | null) => bound !== null && bound !== stamp;
      const totp = row.totp_secret_enc !== null && !stale(row.totp_bound_stamp);
      const sms = row.sms_phone !== null && !stale(row.sms_bound_stamp);
      const pin = row.pin_enabled === 1 && !stale(row.pin_bound_stamp);
      if (row.totp_secret_enc !== null && !totp) methods.push('authenticator');
      if (row.sms_phone !== null && !sms) methods.push('sms');
      if (row.pin_enabled === 1 && !pin) methods.push('pin');
      if (methods.length > 0) {
        const left: Method[] = [
          ...(totp ? (['authenticator'] as const) : []),
          ...(sms ? (['sms'] as const) : []),
          ...(pin ? (['pin'] as const) : []),
        ];
        if (left.length === 0) {
          await trx.deleteFrom('second_factors').where('user_id', '=', userId).execute();
        } else {
          const preferred = left.includes(row.preferred_method as Method) ? row.preferred_method : left[0]!;
          await trx
            .updateTable('second_factors')
            .set({
              ...(totp ? {} : { totp_secret_enc: null, totp_last_step: null, totp_bound_stamp: null }),
              ...(sms ? {} : { sms_phone: null, sms_bound_stamp: null }),
              ...(pin ? {} : { pin_enabled: 0, pin_bound_stamp: null }),
              preferred_method: preferred,
              updated_at: at,
            })
            .where('user_id', '=', userId)
            .execute();
        }
      }
    }
    return {
      passkeys: Number(passkeys.numDeletedRows),
      methods,
      recoveryCodes: Number(codes.numDeletedRows),
    };
  });
}
