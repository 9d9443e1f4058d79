import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

// int8 (bigint) columns hold epoch milliseconds; they fit a JS number, so read them as numbers on PostgreSQL too
// and keep one repository code path for both dialects.
pg.types.setTypeParser(20, (value) => Number(value));

/** Which SQL engine a {@link Kysely} instance talks to. */
export type Dialect = 'sqlite' | 'postgres';

/** An open database with its dialect. */
export interface StoreDatabase {
  db: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL schema in use when not the default (tests); migrations keep their tables there too. */
  schema?: string | undefined;
  /** True when the database answers a trivial query (used by /readyz). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Options of {@link openDatabase}. */
export interface OpenDatabaseOptions {
  /** PostgreSQL URL; SQLite otherwise. */
  databaseUrl?: string | undefined;
  /** SQLite file path (`DATA_DIR/identity.db`), or ':memory:'. */
  sqliteFile?: string;
  /** PostgreSQL schema to use (tests use a fresh one per run). */
  pgSchema?: string;
}

/** Opens SQLite (WAL, foreign keys) or PostgreSQL (pooled) behind the same Kysely interface. */
export function openDatabase(options: OpenDatabaseOptions): StoreDatabase {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: 5000,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    // An idle client's error (e.g. the server restarted) must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: 'postgres',
      schema: options.pgSchema,
      ping: () => ping(db),
      close: () => db.destroy(),
    };
  }
  const file = options.sqliteFile ?? ':memory:';
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  // Several processes (server + CLIs) may write the same file: wait for the lock instead of failing at once.
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', ping: () => ping(db), close: () => db.destroy() };
}

async function ping(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
