import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** What a one-time token is for; each purpose is its own namespace (a reset token never signs anyone in). */
export type OneTimeTokenPurpose = 'password-reset';

/** A live token as the identity layer sees it (never the token itself: only its hash is stored, S12). */
export interface OneTimeTokenRecord {
  id: string;
  userId: string;
  expiresAt: number;
}

/**
 * The `one_time_tokens` table (reset links and other mailed one-use secrets). Rows hold the SHA-256 of the token,
 * never the token (S12); using one is a conditional UPDATE, so of any number of concurrent uses exactly one wins,
 * on SQLite and PostgreSQL alike (S42).
 */
export class OneTimeTokenRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Stores a new token for the user and ends every older unused token of the same purpose in the same transaction:
   * only the newest link works (S12).
   */
  async issue(input: {
    userId: string;
    purpose: OneTimeTokenPurpose;
    tokenHash: string;
    ttlMs: number;
  }): Promise<OneTimeTokenRecord> {
    const at = this.now();
    const row = {
      id: randomUUID(),
      token_hash: input.tokenHash,
      purpose: input.purpose,
      user_id: input.userId,
      data: '{}',
      expires_at: at + input.ttlMs,
      consumed_at: null,
      created_at: at,
    };
    await this.db.transaction().execute(async (trx) => {
      // Dead rows of this user and purpose go; nothing of theirs is worth keeping once a newer link exists.
      await trx
        .deleteFrom('one_time_tokens')
        .where('user_id', '=', input.userId)
        .where('purpose', '=', input.purpose)
        .execute();
      await trx.insertInto('one_time_tokens').values(row).execute();
    });
    return { id: row.id, userId: input.userId, expiresAt: row.expires_at };
  }

  /** The live (unused, unexpired) token with this hash and purpose, without using it. */
  async findLive(purpose: OneTimeTokenPurpose, tokenHash: string): Promise<OneTimeTokenRecord | undefined> {
    const row = await this.db
      .selectFrom('one_time_tokens')
      .select(['id', 'user_id', 'expires_at'])
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', this.now())
      .executeTakeFirst();
    if (!row?.user_id) return undefined;
    return { id: row.id, userId: row.user_id, expiresAt: Number(row.expires_at) };
  }

  /** Uses the token: true for exactly one caller while it is live, false for every other (S12, S42). */
  async consume(id: string): Promise<boolean> {
    const at = this.now();
    const result = await this.db
      .updateTable('one_time_tokens')
      .set({ consumed_at: at })
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Ends every unused token of the user and purpose (a password change makes older links worthless). */
  async revokeAll(userId: string, purpose: OneTimeTokenPurpose): Promise<void> {
    await this.db
      .updateTable('one_time_tokens')
      .set({ consumed_at: this.now() })
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .execute();
  }
}
