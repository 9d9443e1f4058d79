import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

// Releases that watch themselves (issue 51, ADR 0059):
// - release_events: the history of every release change (publish, promote, canary started/changed/ended, ended by the
//   guard, rollback, guard settings), with its actor (a console user's username, `cli:<os user>` or `guard`), the
//   optional reason and, for the guard, the figures it judged by;
// - release_versions gains who published it, when and by whom it was last made active, its bytes on the wire
//   (Brotli of its JS and CSS) and the shared versions its federation manifest requires (JSON);
// - release_remotes gains when and by whom the running canary was started, and the canary guard's settings of the
//   remote (defaults: 100 page loads, above 2 % and above twice the active version's failure rate), so replicas
//   follow them with the registry's revision;
// - release_health_counts: page loads and remote-load failures per minute, remote and version, counted by every
//   replica (client error reports stay in client_error_counts, which `admin errors` reads).
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const real = dialect === 'postgres' ? sql`double precision` : sql`real`;
  await db.schema
    .createTable('release_events')
    .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('remote', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('version', 'text')
    .addColumn('percent', 'integer')
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('figures', 'text')
    .execute();
  await db.schema.createIndex('release_events_at').on('release_events').columns(['at']).execute();
  await db.schema
    .createIndex('release_events_remote')
    .on('release_events')
    .columns(['remote', 'at'])
    .execute();

  await db.schema.alterTable('release_versions').addColumn('published_by', 'text').execute();
  await db.schema.alterTable('release_versions').addColumn('activated_at', 'bigint').execute();
  await db.schema.alterTable('release_versions').addColumn('activated_by', 'text').execute();
  await db.schema
    .alterTable('release_versions')
    .addColumn('bytes_on_wire', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('release_versions')
    .addColumn('requires', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();

  await db.schema.alterTable('release_remotes').addColumn('canary_started_at', 'bigint').execute();
  await db.schema.alterTable('release_remotes').addColumn('canary_started_by', 'text').execute();
  // A canary running at this upgrade is judged by the guard from now on (its real start was never recorded).
  await sql`update release_remotes set canary_started_at = ${Date.now()} where canary_version is not null`.execute(
    db,
  );
  await db.schema
    .alterTable('release_remotes')
    .addColumn('guard_min_page_loads', 'integer', (c) => c.notNull().defaultTo(100))
    .execute();
  await db.schema
    .alterTable('release_remotes')
    .addColumn('guard_min_failure_rate', real, (c) => c.notNull().defaultTo(0.02))
    .execute();
  await db.schema
    .alterTable('release_remotes')
    .addColumn('guard_ratio', real, (c) => c.notNull().defaultTo(2))
    .execute();

  await db.schema
    .createTable('release_health_counts')
    .addColumn('minute', 'bigint', (c) => c.notNull())
    .addColumn('remote', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('release_health_counts_pk', ['minute', 'remote', 'version', 'kind'])
    .execute();
}
