import type { Kysely } from 'kysely';

// Issue 43 (ADR 0036): the security centre lists where an account is signed in and signs one of those sessions out.
// Sessions are stored under a hash of their cookie id in SQL or Redis, with nothing that finds them by account; this
// index does, whatever the session store. `handle` is a random id the page may see (never the session's key).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_sessions')
    .addColumn('session_key', 'text', (c) => c.primaryKey())
    .addColumn('handle', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('account_sessions_user').on('account_sessions').column('user_id').execute();
}
