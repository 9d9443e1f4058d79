/**
 * The storage behind a test: a migrated store on a SQLite file in a temporary folder or in a fresh PostgreSQL
 * schema (TEST_DATABASE_URL), and optionally a Redis client (TEST_REDIS_URL) with a key prefix of its own. Every
 * test harness opens its storage here, so runs stay independent and `close` leaves nothing behind.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { openDatabase, type StoreDatabase } from '../store/database.js';
import { openStore, type Store } from '../store/store.js';

/** Which backends a test gateway uses: the embedded default, or PostgreSQL + Redis from TEST_* variables. */
export type Backend = 'sqlite' | 'postgres-redis';

/** Backends to run the suites on: SQLite always, PostgreSQL + Redis when both TEST_ variables are set. */
export const BACKENDS: { name: Backend; skip: string | false }[] = [
  { name: 'sqlite', skip: false },
  {
    name: 'postgres-redis',
    skip:
      process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL
        ? false
        : 'TEST_DATABASE_URL and TEST_REDIS_URL are not set (.ci/run sets them when PostgreSQL and Redis answer)',
  },
];

/** What {@link openTestBackends} opens. */
export interface TestBackendsOptions {
  /** Where the store lives: a SQLite file, or a fresh schema of TEST_DATABASE_URL. */
  sql: 'sqlite' | 'postgres';
  /** Also connect to TEST_REDIS_URL. */
  redis?: boolean | undefined;
  /** Folder for the SQLite file; by default a new temporary folder that `close` removes. */
  dir?: string | undefined;
  /** Prefix of the temporary folder's name (default `gateway-test-`). */
  tempPrefix?: string | undefined;
  dataEncryptionKey?: Buffer | undefined;
  /** The store's clock (default: the system clock). */
  now?: (() => number) | undefined;
}

/** An open store (and Redis) for one test run. */
export interface TestBackends {
  store: Store;
  /** Connected when `redis: true`. */
  redis: Redis | undefined;
  /** Unique to this run; Redis keys under it are deleted on `close`. */
  keyPrefix: string;
  /** The folder holding the SQLite file (or, on PostgreSQL, a temporary folder for anything else). */
  dir: string;
  /** Deletes this run's Redis keys, closes the store, drops the schema, removes the temporary folder. */
  close(): Promise<void>;
}

/** Runs one statement on the test PostgreSQL (TEST_DATABASE_URL), on its own connection. */
export async function onPostgres(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The SQL engines a store-level test (a migration's) runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const SQL_ENGINES: { sql: 'sqlite' | 'postgres'; skip: string | false }[] = [
  { sql: 'sqlite', skip: false },
  { sql: 'postgres', skip: process.env.TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set' },
];

/**
 * A database of one test's own on `sql`, not migrated: SQLite in memory, or a fresh schema `test_<label>_<random>`
 * of TEST_DATABASE_URL. What closes it (and drops the schema) is added to `cleanups`, to be run last first.
 */
export async function openTestDatabase(
  sql: 'sqlite' | 'postgres',
  label: string,
  cleanups: (() => Promise<void>)[],
): Promise<StoreDatabase> {
  if (sql === 'sqlite') {
    const database = openDatabase({ sqliteFile: ':memory:' });
    cleanups.push(() => database.close());
    return database;
  }
  const schema = `test_${label}_${randomBytes(4).toString('hex')}`;
  await onPostgres(`create schema ${schema}`);
  cleanups.push(() => onPostgres(`drop schema ${schema} cascade`));
  const database = openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, pgSchema: schema });
  cleanups.push(() => database.close());
  return database;
}

/** Opens the storage of one test run. */
export async function openTestBackends(options: TestBackendsOptions): Promise<TestBackends> {
  const id = randomBytes(6).toString('hex');
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(path.join(tmpdir(), options.tempPrefix ?? 'gateway-test-'));
  const dataEncryptionKey = options.dataEncryptionKey ?? randomBytes(32);
  const cleanups: (() => Promise<void> | void)[] = [];
  if (ownDir) cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const close = async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  };

  try {
    let store: Store;
    if (options.sql === 'postgres') {
      // A fresh schema per run keeps runs independent; it is dropped on close.
      const schema = `test_${id}`;
      await onPostgres(`create schema ${schema}`);
      cleanups.unshift(() => onPostgres(`drop schema ${schema} cascade`));
      store = await openStore({
        databaseUrl: process.env.TEST_DATABASE_URL,
        pgSchema: schema,
        dataEncryptionKey,
        now: options.now,
      });
    } else {
      store = await openStore({
        sqliteFile: path.join(dir, 'identity.db'),
        dataEncryptionKey,
        now: options.now,
      });
    }
    cleanups.unshift(() => store.database.close());

    const keyPrefix = `test:${id}:`;
    let redis: Redis | undefined;
    if (options.redis) {
      const client = new Redis(process.env.TEST_REDIS_URL!, {
        enableOfflineQueue: true,
        maxRetriesPerRequest: 1,
      });
      redis = client;
      cleanups.unshift(async () => {
        const keys = await client.keys(`${keyPrefix}*`);
        if (keys.length > 0) await client.del(...keys);
        client.disconnect();
      });
    }
    return { store, redis, keyPrefix, dir, close };
  } catch (error) {
    await close();
    throw error;
  }
}
