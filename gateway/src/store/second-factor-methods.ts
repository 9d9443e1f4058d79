import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

type Method = 'authenticator' | 'sms' | 'pin';

/**
 * Turns one second-factor method off and keeps the others (the security centre, ADR 0036); the preferred method
 * moves to `next` when it was the one removed. Removing the last method is `SecondFactorRepository.disable`.
 */
export async function removeSecondFactorMethod(
  db: Kysely<Database>,
  userId: string,
  method: Method,
  next: Method,
  at: number,
): Promise<void> {
  const off =
    method === 'authenticator'
      ? { totp_secret_enc: null, totp_last_step: null }
      : method === 'sms'
        ? { sms_phone: null }
        : { pin_enabled: 0 };
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('second_factors')
      .set({ ...off, updated_at: at })
      .where('user_id', '=', userId)
      .execute();
    await trx
      .updateTable('second_factors')
      .set({ preferred_method: next })
      .where('user_id', '=', userId)
      .where('preferred_method', '=', method)
      .execute();
  });
}

/** Makes `method` the one the sign-in asks for first. */
export async function setPreferredSecondFactor(
  db: Kysely<Database>,
  userId: string,
  method: Method,
  at: number,
): Promise<void> {
  await db
    .updateTable('second_factors')
    .set({ preferred_method: method, updated_at: at })
    .where('user_id', '=', userId)
    .execute();
}
