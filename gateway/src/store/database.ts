import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  sql,
  type Compilable,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { startWalCheckpointer, type WalCheckpointer } from './wal-checkpointer.js';
import { flushDeferred, WalSync, type FlushFile } from './wal-sync.js';

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
  /** SQLite with `checkpointInBackground`: the thread that checkpoints the WAL. */
  checkpointer?: WalCheckpointer;
  /** SQLite file: synchronous reads of committed rows on a connection of their own (see {@link CommittedReader}). */
  committedReader?: CommittedReader;
  /** PostgreSQL: the connection pool's counts and its connections' errors (metrics, dependency health). */
  pool?: PoolView;
  /** True when the database answers a trivial query (used by /readyz). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Reads committed rows of an SQLite file without a promise, on a read-only connection of its own: for the one read
 * every request makes (the session), where Kysely's driver, its connection lock and their promises cost more than
 * SQLite's own work. In WAL mode each statement reads the last committed state (this process's writes as soon as
 * they commit, other processes' too) and never what an open transaction of the main connection has not committed.
 */
export interface CommittedReader {
  /** The first row the statement selects with these parameters, or undefined. */
  get<Row>(sql: string, params: readonly unknown[]): Row | undefined;
}

/**
 * Runs a write on an SQLite connection at once, without Kysely's driver (its connection lock and a promise per step):
 * answers the number of rows changed, or undefined, without running it, while a transaction is open on the connection
 * (the write must then wait for it behind Kysely's lock, not join it).
 */
type DirectWriter = (sql: string, params: readonly unknown[]) => number | undefined;

/**
 * The {@link DirectWriter} of each SQLite main connection's Kysely instance (set by {@link openDatabase}); a
 * transaction's Kysely instance has none, so a write built on it goes through the transaction.
 */
const directWriters = new WeakMap<Kysely<Database>, DirectWriter>();

/** The {@link WalSync} of each SQLite main connection's Kysely instance opened with `groupCommit`. */
const walSyncs = new WeakMap<object, WalSync>();

/** A named parameter of a {@link Prepared} query: built into the query where its value goes. */
export type Param<Name extends string> = (name: Name) => never;

const PLACEHOLDER = '\u0000prepared:';

/**
 * A query of a hot path (every password sign-in makes it), built and compiled by Kysely once and then run with new
 * values: Kysely's builder and compiler are most of such a query's cost on the main thread, SQLite's own work the
 * least. `build` gets `param(name)` for each value that changes from run to run; what it writes as a value of its
 * own (`enabled = 1`) stays fixed. Reads go through the SQLite file's {@link CommittedReader} when there is one (no
 * driver, no connection lock, no promise per step), otherwise through Kysely's executor with the same SQL. Writes go
 * on Kysely's connection: on SQLite straight to it while no transaction is open there (SQLite answers synchronously,
 * so nothing else can run on the connection meanwhile), otherwise through Kysely's executor, so they wait for an
 * open transaction as every other write does and never become part of it.
 */
export class Prepared<Row, Name extends string> {
  private readonly sql: string;
  /** Per bound parameter of the SQL, in order: the name of its value, or the fixed value the query was built with. */
  private readonly slots: ({ name: Name } | { value: unknown })[];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly reader: CommittedReader | undefined,
    build: (param: Param<Name>) => Compilable<Row>,
  ) {
    const compiled = build((name) => `${PLACEHOLDER}${name}` as never).compile();
    this.sql = compiled.sql;
    this.slots = compiled.parameters.map((value) =>
      typeof value === 'string' && value.startsWith(PLACEHOLDER)
        ? { name: value.slice(PLACEHOLDER.length) as Name }
        : { value },
    );
  }

  /** The first row the read selects with these values, or undefined. */
  async first(values: Record<Name, unknown>): Promise<Row | undefined> {
    const params = this.params(values);
    if (this.reader) return this.reader.get<Row>(this.sql, params);
    return (await this.db.executeQuery<Row>(CompiledQuery.raw(this.sql, params))).rows[0];
  }

  /** Runs the write with these values on the main connection; answers the number of rows it changed. */
  async run(values: Record<Name, unknown>): Promise<number> {
    const params = this.params(values);
    const changed = directWriters.get(this.db)?.(this.sql, params);
    if (changed !== undefined) {
      // Committed; answered once it is on disk (group commit, ADR 0067), or left to the end of a `flushedOnce`.
      if (!flushDeferred()) await walSyncs.get(this.db)?.durable();
      return changed;
    }
    const result = await this.db.executeQuery(CompiledQuery.raw(this.sql, params));
    return Number(result.numAffectedRows ?? 0);
  }

  private params(values: Record<Name, unknown>): unknown[] {
    return this.slots.map((slot) => {
      if (!('name' in slot)) return slot.value;
      const value = values[slot.name];
      if (value === undefined) throw new Error(`prepared query: no value for ${slot.name}`);
      return value;
    });
  }
}

/**
 * Runs `work` (several writes in a row, such as a sign-in's session, its index and its audit events) with their
 * flushes left to its end: each write commits as it goes, and `work`'s answer comes once one flush has put them all
 * on disk, instead of each write waiting for a flush of its own in turn (ADR 0067). What `work` answers must not be
 * acted on outside before that (the caller answers the request after it). Without group commit, `work` alone.
 */
export function flushedOnce<T, DB>(db: Kysely<DB>, work: () => Promise<T>): Promise<T> {
  const walSync = walSyncs.get(db);
  return walSync ? walSync.flushedOnce(work) : work();
}

/** Options of {@link openDatabase}. */
export interface OpenDatabaseOptions {
  /** PostgreSQL URL; SQLite otherwise. */
  databaseUrl?: string | undefined;
  /** SQLite file path (`DATA_DIR/identity.db`), or ':memory:'. */
  sqliteFile?: string;
  /** PostgreSQL schema to use (tests use a fresh one per run). */
  pgSchema?: string;
  /**
   * SQLite file: checkpoint the WAL in a worker thread instead of in the commits of this connection (the server
   * sets it; short-lived CLIs and tests leave SQLite's automatic checkpoints on). See wal-checkpointer.ts.
   */
  checkpointInBackground?: boolean;
  /** Period of the background checkpoints (ms); tests lengthen it. */
  checkpointIntervalMs?: number;
  /**
   * SQLite file: group commit (ADR 0067, the server sets it). The connection commits at `synchronous = NORMAL` and
   * every write, transaction or single statement, resolves once a flush of the WAL beside the event loop has put it
   * on disk, one flush for the commits that wait together, instead of each commit flushing on the main thread.
   */
  groupCommit?: boolean;
  /** The flush `groupCommit` uses (tests count or hold it); `fdatasync` otherwise. */
  flushWal?: FlushFile;
}

/** The PostgreSQL pool as metrics and the dependency health see it. */
export interface PoolView {
  /** Connections checked out by a query or transaction, open but idle, and callers waiting for one. */
  stats(): { inUse: number; idle: number; waiting: number };
  /** Called with every error of a pool connection (idle or checked out); the pool itself drops broken ones. */
  onConnectionError(listener: (error: Error) => void): void;
}

/**
 * A PostgreSQL pool whose every connection's errors are handled. pg-pool listens for `error` on idle clients only
 * (re-emitting it as the pool's `error`); a client checked out by Kysely that loses its server between two queries
 * (a PostgreSQL restart under load) emits `error` with no listener, which Node turns into an uncaught exception
 * that ends the process. Each client gets its own listener as it connects; the query that was using it fails on its
 * own terms and pg-pool discards the client when it is released (it is no longer queryable).
 */
export function createPgPool(config: pg.PoolConfig): { pool: pg.Pool; view: PoolView } {
  const pool = new pg.Pool(config);
  const listeners: ((error: Error) => void)[] = [];
  const report = (error: Error) => {
    for (const listener of listeners) listener(error);
  };
  pool.on('error', report);
  pool.on('connect', (client) => {
    client.on('error', report);
  });
  return {
    pool,
    view: {
      stats: () => ({
        inUse: pool.totalCount - pool.idleCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }),
      onConnectionError: (listener) => listeners.push(listener),
    },
  };
}

/** Opens SQLite (WAL, foreign keys) or PostgreSQL (pooled) behind the same Kysely interface. */
export function openDatabase(options: OpenDatabaseOptions): StoreDatabase {
  if (options.databaseUrl) {
    const { pool, view } = createPgPool({
      connectionString: options.databaseUrl,
      max: 10,
      // While PostgreSQL is down a request waits this long for a connection at most before it is answered 503.
      connectionTimeoutMillis: 5000,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: 'postgres',
      schema: options.pgSchema,
      pool: view,
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
  let checkpointer: WalCheckpointer | undefined;
  if (options.checkpointInBackground && file !== ':memory:') {
    sqlite.pragma('wal_autocheckpoint = 0');
    checkpointer = startWalCheckpointer(file, options.checkpointIntervalMs);
  }
  const statements = withStatementCache(sqlite);
  const walSync =
    options.groupCommit && file !== ':memory:' ? new WalSync(`${file}-wal`, options.flushWal) : undefined;
  // Said every time: better-sqlite3 builds SQLite with NORMAL as the default of a file already in WAL mode, so left
  // alone a new file would flush every commit and the same file reopened none (ADR 0067).
  sqlite.pragma(walSync ? 'synchronous = NORMAL' : 'synchronous = FULL');
  const dialect = walSync
    ? new GroupCommitSqliteDialect({ database: statements }, sqlite, statements, walSync)
    : new SqliteDialect({ database: statements });
  const db = new Kysely<Database>({ dialect });
  if (walSync) walSyncs.set(db, walSync);
  directWriters.set(db, (text, params) => {
    if (sqlite.inTransaction) return undefined;
    const statement = statements.prepare(text) as SQLite.Statement;
    // A write that returns rows (`returning`) is run by Kysely's executor, which reads them.
    if (statement.reader) return undefined;
    const { changes } = statement.run(...params);
    walSync?.committed();
    return changes;
  });
  // An in-memory database is private to its connection: a second one would see another, empty database.
  const reader = file === ':memory:' ? undefined : openCommittedReader(file);
  return {
    db,
    dialect: 'sqlite',
    ...(checkpointer ? { checkpointer } : {}),
    ...(reader ? { committedReader: reader } : {}),
    ping: () => ping(db),
    // The checkpointer's and the reader's connections go first, so closing the last one folds the WAL back in.
    close: async () => {
      await checkpointer?.close();
      reader?.close();
      await db.destroy();
      walSync?.close();
    },
  };
}

/**
 * Kysely's SQLite dialect with group commit (ADR 0067): its driver counts the connection's commits — a transaction's
 * COMMIT, a write outside a transaction — and lets go of the connection at once, but answers the query or the
 * transaction only once the {@link WalSync} has put those commits on disk. The connection's lock is not held during
 * the flush, so the next query runs meanwhile.
 */
class GroupCommitSqliteDialect extends SqliteDialect {
  constructor(
    config: ConstructorParameters<typeof SqliteDialect>[0],
    private readonly sqlite: SQLite.Database,
    private readonly statements: SqliteDatabase,
    private readonly walSync: WalSync,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new GroupCommitDriver(super.createDriver(), this.sqlite, this.statements, this.walSync);
  }
}

/** One use of the connection: the commits counted when it was acquired. */
class CountedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    readonly commitsAtStart: number,
    private readonly sqlite: SQLite.Database,
    private readonly statements: SqliteDatabase,
    private readonly walSync: WalSync,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.inner.executeQuery<R>(query);
    // A statement that wrote outside a transaction committed by itself (the cached statement tells; a COMMIT is
    // read-only to SQLite and counted by the driver).
    if (!this.sqlite.inTransaction && !(this.statements.prepare(query.sql) as SQLite.Statement).readonly)
      this.walSync.committed();
    return result;
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class GroupCommitDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly sqlite: SQLite.Database,
    private readonly statements: SqliteDatabase,
    private readonly walSync: WalSync,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await this.inner.acquireConnection();
    return new CountedConnection(inner, this.walSync.count, this.sqlite, this.statements, this.walSync);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.inner.commitTransaction(connection);
    this.walSync.committed();
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  savepoint(...args: Parameters<NonNullable<Driver['savepoint']>>): Promise<void> {
    return this.inner.savepoint!(...args);
  }

  rollbackToSavepoint(...args: Parameters<NonNullable<Driver['rollbackToSavepoint']>>): Promise<void> {
    return this.inner.rollbackToSavepoint!(...args);
  }

  releaseSavepoint(...args: Parameters<NonNullable<Driver['releaseSavepoint']>>): Promise<void> {
    return this.inner.releaseSavepoint!(...args);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const counted = connection as CountedConnection;
    await this.inner.releaseConnection(counted.inner);
    if (this.walSync.count > counted.commitsAtStart && !flushDeferred()) await this.walSync.durable();
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** The {@link CommittedReader} of an SQLite file already open in WAL mode (the main connection made the WAL). */
function openCommittedReader(file: string): CommittedReader & { close(): void } {
  const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  const statements = withStatementCache(sqlite);
  return {
    get: <Row>(text: string, params: readonly unknown[]) =>
      (statements.prepare(text) as unknown as SQLite.Statement<unknown[], Row>).get(...params),
    close: () => sqlite.close(),
  };
}

/** How many prepared statements the SQLite connection keeps (the queries are the code's own: a few hundred). */
const STATEMENT_CACHE_SIZE = 512;

/**
 * Kysely's SQLite driver prepares every query anew; preparing is a good share of a light call's cost. The one
 * connection keeps its prepared statements by SQL text instead (least recently used dropped past the bound, for
 * queries whose text varies, such as `in (…)` lists). Kysely runs one query at a time on the connection, so a
 * statement is never used by two at once; SQLite re-prepares a statement itself after a schema change.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (statement) statements.delete(text);
      else statement = sqlite.prepare(text);
      statements.set(text, statement);
      if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}

async function ping(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
