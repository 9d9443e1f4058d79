import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The `recovery_codes` table: hashes only (S19); a code is used by setting `used_at`, once. */
export class RecoveryCodeRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Replaces every code of the user with the given hashes (a new set makes the old one worthless); `boundStamp`:
   * made without a proved second factor (ADR 0042).
   */
  async replace(userId: string, hashes: readonly string[], boundStamp: string | null = null): Promise<void> {
    const at = this.now();
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      if (hashes.length === 0) return;
      await trx
        .insertInto('recovery_codes')
        .values(
          hashes.map((hash) => ({
            id: randomUUID(),
            user_id: userId,
            code_hash: hash,
            used_at: null,
            created_at: at,
            bound_stamp: boundStamp,
          })),
        )
        .execute();
    });
  }

  /**
   * Uses the code with this hash: one conditional UPDATE, so of any number of concurrent redemptions of one code
   * exactly one gets true, on SQLite and PostgreSQL alike (S19, S42).
   */
  async redeem(userId: string, hash: string): Promise<boolean> {
    const result = await this.db
      .updateTable('recovery_codes')
      .set({ used_at: this.now() })
      .where('user_id', '=', userId)
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** How many unused codes the user has left. */
  async remaining(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
