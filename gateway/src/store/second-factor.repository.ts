import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A user's second-factor settings as the identity layer sees them (the TOTP secret still sealed). */
export interface SecondFactor {
  userId: string;
  /** The authenticator secret sealed with the store's secret box; null without an authenticator. */
  totpSecretSealed: string | null;
  /** The last TOTP time step accepted (S17: a code is accepted once per step); null before the first. */
  totpLastStep: number | null;
  enabled: boolean;
  preferredMethod: string | null;
  updatedAt: number;
  /** The phone number proved at set-up (the SMS method is on); null without SMS. */
  smsPhone: string | null;
  /** The e-mailed PIN is on. */
  pinEnabled: boolean;
}

/**
 * The default method of a row that already has one stays (ADR 0050: adding a method never changes the default, only
 * SetDefaultTwoStepMethod does); a row without one takes the method being added. One statement, so two set-ups
 * racing cannot both become the default.
 */
const keptDefault = sql<string>`coalesce(second_factors.preferred_method, excluded.preferred_method)`;

/** The `second_factors` table: one row per user who set up a second factor. */
export class SecondFactorRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  async find(userId: string): Promise<SecondFactor | undefined> {
    const row = await this.db
      .selectFrom('second_factors')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      userId: row.user_id,
      totpSecretSealed: row.totp_secret_enc,
      totpLastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
      enabled: row.enabled === 1,
      preferredMethod: row.preferred_method,
      updatedAt: Number(row.updated_at),
      smsPhone: row.sms_phone,
      pinEnabled: row.pin_enabled === 1,
    };
  }

  /**
   * Enables the authenticator with a (sealed) secret, replacing any earlier one (the service allows that only when
   * asked, ADR 0050). `acceptedStep` is the step of the code that confirmed the set-up: that code cannot be used
   * again to sign in (S17). The default method is left as it is; the first method set up becomes it.
   */
  async enableAuthenticator(
    userId: string,
    secretSealed: string,
    acceptedStep: number,
    boundStamp: string | null = null,
  ): Promise<void> {
    const values = {
      totp_secret_enc: secretSealed,
      totp_last_step: acceptedStep,
      totp_bound_stamp: boundStamp,
      enabled: 1,
      updated_at: this.now(),
    };
    await this.db
      .insertInto('second_factors')
      .values({ user_id: userId, ...values, preferred_method: 'authenticator' })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...values, preferred_method: keptDefault }))
      .execute();
  }

  /**
   * Turns the SMS method on with the phone number the user just proved, keeping the other methods and the default
   * (ADR 0050); `boundStamp`: added without a proved second factor (ADR 0042).
   */
  async enableSms(userId: string, phone: string, boundStamp: string | null = null): Promise<void> {
    await this.upsert(userId, { sms_phone: phone, sms_bound_stamp: boundStamp, preferred_method: 'sms' });
  }

  /** Turns the e-mailed PIN on, keeping the other methods and the default; `boundStamp` as {@link enableSms}. */
  async enablePin(userId: string, boundStamp: string | null = null): Promise<void> {
    await this.upsert(userId, { pin_enabled: 1, pin_bound_stamp: boundStamp, preferred_method: 'pin' });
  }

  private async upsert(
    userId: string,
    values: {
      sms_phone?: string;
      sms_bound_stamp?: string | null;
      pin_enabled?: number;
      pin_bound_stamp?: string | null;
      preferred_method: string;
    },
  ): Promise<void> {
    const set = { ...values, enabled: 1, updated_at: this.now() };
    await this.db
      .insertInto('second_factors')
      .values({ user_id: userId, totp_secret_enc: null, totp_last_step: null, ...set })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...set, preferred_method: keptDefault }))
      .execute();
  }

  /**
   * Records `step` as used when it is later than the last accepted one, atomically: of concurrent sign-ins with
   * codes of the same step exactly one gets true (S17, replay refused).
   */
  async acceptTotpStep(userId: string, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('second_factors')
      .set({ totp_last_step: step, updated_at: this.now() })
      .where('user_id', '=', userId)
      .where('enabled', '=', 1)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Turns the second factor off and forgets the secret. */
  async disable(userId: string): Promise<void> {
    await this.db.deleteFrom('second_factors').where('user_id', '=', userId).execute();
  }
}
