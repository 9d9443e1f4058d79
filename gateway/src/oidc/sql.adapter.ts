/**
 * oidc-provider storage adapter over our store's `oidc_payloads` table (SQLite or PostgreSQL through Kysely).
 *
 * One row per artefact, keyed by (kind, id). The one operation that must be atomic is `consume`: oidc-provider reads
 * a code, sees it unconsumed, and only then consumes it, so 50 parallel redemptions would all pass its check. The
 * UPDATE … WHERE consumed_at IS NULL below lets exactly one of them through; the others learn they lost, the grant
 * is revoked (RFC 6749 §4.1.2, §10.5; RFC 9700 §4.14.2 for refresh tokens) and they get invalid_grant (S36).
 */
import type { Kysely } from 'kysely';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { OidcDatabase } from './types.js';

/** Clock in epoch milliseconds; tests pass a fake one to prove the code lifetime. */
export type EpochClock = () => number;

const systemClock: EpochClock = () => Date.now();

/** Thrown when a second redemption of a single-use artefact loses the race (mapped by oidc-provider to 400). */
function alreadyConsumed(kind: string): Error {
  return new errors.InvalidGrant(`${kind} already consumed`);
}

/** One kind of artefact (oidc-provider creates one adapter per model name). */
class SqlPayloadAdapter implements Adapter {
  constructor(
    private readonly db: Kysely<OidcDatabase>,
    private readonly kind: string,
    private readonly clock: EpochClock,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const now = this.clock();
    const row = {
      id,
      kind: this.kind,
      payload: JSON.stringify(payload),
      grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
      user_code: typeof payload.userCode === 'string' ? payload.userCode : null,
      uid: typeof payload.uid === 'string' ? payload.uid : null,
      expires_at: expiresIn ? now + expiresIn * 1000 : null,
    };
    await this.db
      .insertInto('oidc_payloads')
      .values({ ...row, consumed_at: null })
      .onConflict((conflict) =>
        conflict.columns(['kind', 'id']).doUpdateSet({
          payload: row.payload,
          grant_id: row.grant_id,
          user_code: row.user_code,
          uid: row.uid,
          expires_at: row.expires_at,
        }),
      )
      .execute();
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('oidc_payloads')
      .select(['payload', 'expires_at', 'consumed_at'])
      .where('kind', '=', this.kind)
      .where('id', '=', id)
      .executeTakeFirst();
    return this.toPayload(row);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('oidc_payloads')
      .select(['payload', 'expires_at', 'consumed_at'])
      .where('kind', '=', this.kind)
      .where('uid', '=', uid)
      .executeTakeFirst();
    return this.toPayload(row);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('oidc_payloads')
      .select(['payload', 'expires_at', 'consumed_at'])
      .where('kind', '=', this.kind)
      .where('user_code', '=', userCode)
      .executeTakeFirst();
    return this.toPayload(row);
  }

  async consume(id: string): Promise<void> {
    const now = this.clock();
    const result = await this.db
      .updateTable('oidc_payloads')
      .set({ consumed_at: now })
      .where('kind', '=', this.kind)
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .executeTakeFirst();
    if (result.numUpdatedRows > 0n) return;
    // Lost the race (or the row is gone): someone else redeemed it. Treat as replay and revoke the whole grant.
    const row = await this.db
      .selectFrom('oidc_payloads')
      .select(['grant_id'])
      .where('kind', '=', this.kind)
      .where('id', '=', id)
      .executeTakeFirst();
    if (row?.grant_id) await this.revokeByGrantId(row.grant_id);
    throw alreadyConsumed(this.kind);
  }

  async destroy(id: string): Promise<void> {
    await this.db.deleteFrom('oidc_payloads').where('kind', '=', this.kind).where('id', '=', id).execute();
  }

  /** Removes every artefact of the grant (codes, tokens, the grant itself), whatever adapter is asked. */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db
      .deleteFrom('oidc_payloads')
      .where((eb) =>
        eb.or([eb('grant_id', '=', grantId), eb.and([eb('kind', '=', 'Grant'), eb('id', '=', grantId)])]),
      )
      .execute();
  }

  private toPayload(
    row:
      | { payload: string; expires_at: number | string | null; consumed_at: number | string | null }
      | undefined,
  ): AdapterPayload | undefined {
    if (!row) return undefined;
    // Number(): a PostgreSQL bigint may arrive as text when the store's type parser is not installed.
    if (row.expires_at !== null && Number(row.expires_at) <= this.clock()) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    // oidc-provider only tests `consumed` for truthiness; it gets epoch seconds like its own timestamps.
    return row.consumed_at === null
      ? payload
      : { ...payload, consumed: Math.floor(Number(row.consumed_at) / 1000) };
  }
}

/** An adapter factory for oidc-provider that stores every model in `oidc_payloads`. */
export function createSqlAdapterFactory(
  db: Kysely<OidcDatabase>,
  clock: EpochClock = systemClock,
): AdapterFactory {
  return (kind: string) => new SqlPayloadAdapter(db, kind, clock);
}

/** Deletes expired rows; the provider runs it on a timer so the table does not grow without bound. */
export async function purgeExpiredOidcPayloads(
  db: Kysely<OidcDatabase>,
  clock: EpochClock = systemClock,
): Promise<number> {
  const result = await db
    .deleteFrom('oidc_payloads')
    .where('expires_at', 'is not', null)
    .where('expires_at', '<=', clock())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
