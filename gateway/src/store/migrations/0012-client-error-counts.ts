import type { Kysely } from 'kysely';

// Client-error reports counted per minute, remote, version and kind (ADR 0015): what `admin errors --since 1h`
// compares across versions during a canary. Aggregates only: the report texts stay in the log.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('client_error_counts')
    .addColumn('minute', 'bigint', (c) => c.notNull())
    .addColumn('remote', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('client_error_counts_pk', ['minute', 'remote', 'version', 'kind'])
    .execute();
}
