import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

// Releases in the store (issue 41, ADR 0033): the registry of the remotes and their build files move from
// DATA_DIR/releases on each replica into the database every replica shares.
// - release_versions: one published build of a remote, inserted in the same transaction as all of its files, so a
//   version row never exists without every file it names;
// - release_files: each file of a build by its path inside dist/ (any file: the list is never fixed), with its bytes,
//   its precompressed encodings (ADR 0026; null when not smaller or not a compressed type), type and SHA-256;
// - release_remotes: per remote the active version, the earlier ones (JSON list, newest last) and the canary;
// - release_state: one row whose revision every registry change raises in its transaction: what replicas poll (and,
//   on PostgreSQL, what the NOTIFY of that transaction announces).
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const bytes = dialect === 'postgres' ? sql`bytea` : sql`blob`;
  await db.schema
    .createTable('release_versions')
    .addColumn('remote', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('file_count', 'integer', (c) => c.notNull())
    .addColumn('published_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('release_versions_pk', ['remote', 'version'])
    .execute();
  await db.schema
    .createTable('release_files')
    .addColumn('remote', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('body', bytes, (c) => c.notNull())
    .addColumn('body_br', bytes)
    .addColumn('body_gzip', bytes)
    .addPrimaryKeyConstraint('release_files_pk', ['remote', 'version', 'path'])
    .addForeignKeyConstraint('release_files_version', ['remote', 'version'], 'release_versions', [
      'remote',
      'version',
    ])
    .execute();
  await db.schema
    .createTable('release_remotes')
    .addColumn('remote', 'text', (c) => c.primaryKey())
    .addColumn('active', 'text')
    .addColumn('previous', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('canary_version', 'text')
    .addColumn('canary_percent', 'integer')
    .execute();
  await db.schema
    .createTable('release_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('revision', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into release_state (id, revision) values (1, 0)`.execute(db);
}
