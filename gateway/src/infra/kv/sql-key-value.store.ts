import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../store/database.js';
import type { Database } from '../../store/schema.js';
import {
  checkKey,
  checkTtl,
  checkValue,
  KeyValueTypeError,
  type CounterWindow,
  type KeyValueStore,
} from './key-value-store.js';

/** Options of {@link SqlKeyValueStore}. */
export interface SqlKeyValueStoreOptions {
  now?: () => number;
  /** Expired rows are deleted once every this many writes (default 200). */
  purgeEvery?: number;
}

/**
 * Key-value store in the main database's `kv` table (the default without Redis: SQLite, or PostgreSQL). `take` is
 * one `DELETE … RETURNING`, which both engines run atomically: of concurrent takes only one sees the row.
 */
export class SqlKeyValueStore implements KeyValueStore {
  private readonly now: () => number;
  private readonly purgeEvery: number;
  private writes = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    options: SqlKeyValueStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.purgeEvery = options.purgeEvery ?? 200;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    checkKey(key);
    checkValue(value);
    checkTtl(ttlMs);
    const expiresAt = this.now() + ttlMs;
    await this.db
      .insertInto('kv')
      .values({ key, value, expires_at: expiresAt })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, expires_at: expiresAt }))
      .execute();
    await this.purgeNowAndThen();
  }

  async get(key: string): Promise<string | undefined> {
    checkKey(key);
    const row = await this.db
      .selectFrom('kv')
      .select('value')
      .where('key', '=', key)
      .where('expires_at', '>', this.now())
      .executeTakeFirst();
    return row?.value;
  }

  async take(key: string): Promise<string | undefined> {
    checkKey(key);
    const row = await this.db
      .deleteFrom('kv')
      .where('key', '=', key)
      .returning(['value', 'expires_at'])
      .executeTakeFirst();
    // An expired row is deleted all the same, and its value never handed out.
    return row && Number(row.expires_at) > this.now() ? row.value : undefined;
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    await this.db.deleteFrom('kv').where('key', '=', key).execute();
  }

  async increment(key: string, ttlMs: number, window: CounterWindow = 'sliding'): Promise<number> {
    checkKey(key);
    checkTtl(ttlMs);
    const now = this.now();
    const expiresAt = now + ttlMs;
    // One upsert, so concurrent increments never lose a count. A live row that is not a counter is left alone (the
    // WHERE fails, nothing is returned) and reported; the guard is per dialect as SQLite has no regular expressions.
    const isCounter =
      this.dialect === 'postgres'
        ? sql<boolean>`kv.value ~ '^[0-9]+$'`
        : sql<boolean>`(kv.value <> '' and kv.value not glob '*[^0-9]*')`;
    const expired = sql<boolean>`kv.expires_at <= ${now}`;
    const row = await this.db
      .insertInto('kv')
      .values({ key, value: '1', expires_at: expiresAt })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({
            value: sql<string>`case when ${expired} then '1' when ${isCounter} then cast(cast(kv.value as bigint) + 1 as text) end`,
            // A fixed window keeps the live counter's end; a sliding one (or an expired row) starts anew.
            expires_at:
              window === 'fixed'
                ? sql<number>`case when ${expired} then ${expiresAt} else kv.expires_at end`
                : expiresAt,
          })
          .where(sql<boolean>`${expired} or ${isCounter}`),
      )
      .returning('value')
      .executeTakeFirst();
    if (!row) throw new KeyValueTypeError(key);
    await this.purgeNowAndThen();
    return Number(row.value);
  }

  close(): Promise<void> {
    // The database belongs to the store and is closed with it.
    return Promise.resolve();
  }

  // Expired rows that nobody takes again (abandoned sign-ins) are swept now and then rather than on every write.
  private async purgeNowAndThen(): Promise<void> {
    this.writes += 1;
    if (this.writes % this.purgeEvery !== 0) return;
    await this.db.deleteFrom('kv').where('expires_at', '<=', this.now()).execute();
  }
}
