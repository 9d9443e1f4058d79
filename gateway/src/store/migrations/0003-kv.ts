import type { Kysely } from 'kysely';

// Short-lived flow state (SqlKeyValueStore) when there is no Redis. Values are text; counters are decimal text.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('kv')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  // The opportunistic purge deletes by expiry.
  await db.schema.createIndex('kv_expires').on('kv').column('expires_at').execute();
}
