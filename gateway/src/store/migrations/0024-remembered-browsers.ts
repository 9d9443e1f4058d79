import type { Kysely } from 'kysely';

// Issue 43 (ADR 0036, ADR 0008): the security centre lists the browsers that skip the second factor and forgets one
// or all. Until now "remember this browser" was a signed cookie the server kept nothing of; now each entry has a row
// here, and an entry is honoured only while its row exists, so forgetting really revokes it.
// - entry_key: SHA-256 of the entry's random part; never the cookie value (whoever reads the table cannot make one).
// - handle: a random id the page names the row by (never the key).
// - stamp_hash: SHA-256 of the account's security stamp when remembered: a password change ends the entry (its MAC
//   no longer verifies) and drops it from the list.
// - ip: coarse (an IPv4 /24, an IPv6 /48): a hint of where, kept as long as the entry (30 days).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('remembered_browsers')
    .addColumn('entry_key', 'text', (c) => c.primaryKey())
    .addColumn('handle', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('stamp_hash', 'text', (c) => c.notNull())
    .addColumn('remembered_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema
    .createIndex('remembered_browsers_user')
    .on('remembered_browsers')
    .column('user_id')
    .execute();
}
