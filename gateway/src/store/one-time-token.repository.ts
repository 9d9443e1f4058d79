import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** What a one-time token is for; each purpose is its own namespace (a reset token never signs anyone in). */
export type OneTimeTokenPurpose = 'password-reset' | 'sign-in';

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

  /**
   * Stores a one-time sign-in token (ADR 0019): the link token's hash, the typed code's keyed hash, the browser
   * binding's hash (null: issued by the admin CLI, any browser) and what the sign-in carries on (`data`). It replaces,
   * in the same transaction, the older sign-in tokens of the same browser (any account: a browser has one live code)
   * or, for an unbound token, the older unbound ones of the account; other browsers' tokens stay.
   */
  async issueSignIn(input: {
    userId: string;
    tokenHash: string;
    codeHash: string | null;
    bindingHash: string | null;
    ttlMs: number;
    data: Record<string, unknown>;
  }): Promise<OneTimeTokenRecord> {
    const at = this.now();
    const row = {
      id: randomUUID(),
      token_hash: input.tokenHash,
      purpose: 'sign-in',
      user_id: input.userId,
      data: JSON.stringify({ ...input.data, codeHash: input.codeHash }),
      expires_at: at + input.ttlMs,
      consumed_at: null,
      created_at: at,
      binding_hash: input.bindingHash,
    };
    await this.db.transaction().execute(async (trx) => {
      let older = trx.deleteFrom('one_time_tokens').where('purpose', '=', 'sign-in');
      older =
        input.bindingHash === null
          ? older.where('user_id', '=', input.userId).where('binding_hash', 'is', null)
          : older.where('binding_hash', '=', input.bindingHash);
      await older.execute();
      await trx.insertInto('one_time_tokens').values(row).execute();
    });
    return { id: row.id, userId: input.userId, expiresAt: row.expires_at };
  }

  /** The live sign-in token with this link-token hash, with its binding and data, without using it. */
  async findLiveSignIn(tokenHash: string): Promise<OneTimeSignInRecord | undefined> {
    return this.liveSignIn('token_hash', tokenHash);
  }

  /** The live sign-in token bound to this browser (its newest request), without using it. */
  async findLiveSignInByBinding(bindingHash: string): Promise<OneTimeSignInRecord | undefined> {
    return this.liveSignIn('binding_hash', bindingHash);
  }

  private async liveSignIn(
    column: 'token_hash' | 'binding_hash',
    value: string,
  ): Promise<OneTimeSignInRecord | undefined> {
    const row = await this.db
      .selectFrom('one_time_tokens')
      .select(['id', 'user_id', 'expires_at', 'token_hash', 'binding_hash', 'data', 'attempts'])
      .where(column, '=', value)
      .where('purpose', '=', 'sign-in')
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', this.now())
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    if (!row?.user_id) return undefined;
    let data: Record<string, unknown> = {};
    try {
      data = JSON.parse(row.data) as Record<string, unknown>;
    } catch {
      // A row this code did not write: no code, no returnUrl.
    }
    return {
      id: row.id,
      userId: row.user_id,
      expiresAt: Number(row.expires_at),
      tokenHash: row.token_hash,
      bindingHash: row.binding_hash,
      attempts: Number(row.attempts),
      codeHash: typeof data.codeHash === 'string' ? data.codeHash : null,
      data,
    };
  }

  /**
   * Counts one typed code against a live token: true while fewer than `limit` were counted before. A conditional
   * UPDATE, so of N parallel guesses at most `limit` are let through to the comparison (S5, S6, S42).
   */
  async countAttempt(id: string, limit: number): Promise<boolean> {
    const result = await this.db
      .updateTable('one_time_tokens')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', this.now())
      .where('attempts', '<', limit)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}

/** A live one-time sign-in token (ADR 0019): hashes only, never the token or the code. */
export interface OneTimeSignInRecord extends OneTimeTokenRecord {
  /** SHA-256 of the link token (the typed code's keyed hash is made over it). */
  tokenHash: string;
  /** SHA-256 of the binding of the browser that asked; null for a token of the admin CLI. */
  bindingHash: string | null;
  /** Wrong codes typed so far. */
  attempts: number;
  /** The keyed hash of the typed code; null when the token has none (admin CLI: link only). */
  codeHash: string | null;
  /** What the sign-in carries on (the returnUrl SendOTP was given). */
  data: Record<string, unknown>;
}
