import { sql, type Kysely, type Transaction } from 'kysely';
import type { Dialect } from './database.js';
import type { Database } from './schema.js';

/**
 * The PostgreSQL channel every registry change notifies (in its own transaction, so the notice arrives once the
 * change is visible). Its payload is the new revision; a listener only takes it as a hint to compare revisions.
 */
export const RELEASES_CHANNEL = 'hr_identity_releases';

/** One file of a build as the store keeps it. */
export interface StoredReleaseFile {
  /** Relative path inside the build folder, `/`-separated. */
  path: string;
  contentType: string;
  /** SHA-256 of `body`, hex. */
  sha256: string;
  body: Buffer;
  /** Brotli and gzip encodings of `body` (ADR 0026); absent when not smaller or not a compressed type. */
  br: Buffer | undefined;
  gzip: Buffer | undefined;
}

/** A published version of a remote. */
export interface PublishedVersion {
  /** ISO time of publication. */
  publishedAt: string;
  /** SHA-256 over the build folder's paths and bytes (`contentHash`). */
  contentHash: string;
  /** How many files the version has. */
  fileCount: number;
}

/** A remote's release state: which version everyone gets, and an optional canary. */
export interface RemoteRelease {
  active: string | undefined;
  /** Earlier active versions, newest last; `rollback` returns to the last one. */
  previous: string[];
  canary: { version: string; percent: number } | undefined;
  versions: Record<string, PublishedVersion>;
}

/** The registry: per remote id, its release state. */
export interface RegistryFile {
  remotes: Partial<Record<string, RemoteRelease>>;
}

/** The registry at one revision. */
export interface RegistryAtRevision {
  revision: number;
  registry: RegistryFile;
}

/** What a registry change may touch of one remote (the versions are the store's, never changed here). */
export type ReleaseState = Pick<RemoteRelease, 'active' | 'previous' | 'canary'>;

// Rows per INSERT of files: far below SQLite's 32 766 bound parameters, and a few MB per statement at most.
const FILES_PER_INSERT = 20;

/**
 * Releases of the remotes in the SQL store (ADR 0033): published builds with their files, and per remote the active
 * version, the earlier ones and the canary. Every change raises `release_state.revision` in its transaction (and
 * notifies {@link RELEASES_CHANNEL} on PostgreSQL), which is how replicas learn of it.
 */
export class ReleaseRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /** The registry's revision: it rises with every change. */
  async revision(): Promise<number> {
    const row = await this.db
      .selectFrom('release_state')
      .select('revision')
      .where('id', '=', 1)
      .executeTakeFirst();
    return Number(row?.revision ?? 0);
  }

  /** The whole registry with the revision it was read at (one transaction, so both agree). */
  async read(): Promise<RegistryAtRevision> {
    return this.db.transaction().execute(async (trx) => {
      const revision = await trx
        .selectFrom('release_state')
        .select('revision')
        .where('id', '=', 1)
        .executeTakeFirst();
      const versions = await trx
        .selectFrom('release_versions')
        .select(['remote', 'version', 'content_hash', 'file_count', 'published_at'])
        .orderBy('published_at')
        .orderBy('version')
        .execute();
      const states = await trx.selectFrom('release_remotes').selectAll().execute();
      const remotes: RegistryFile['remotes'] = {};
      const release = (id: string): RemoteRelease =>
        (remotes[id] ??= { active: undefined, previous: [], canary: undefined, versions: {} });
      for (const v of versions)
        release(v.remote).versions[v.version] = {
          publishedAt: new Date(Number(v.published_at)).toISOString(),
          contentHash: v.content_hash,
          fileCount: Number(v.file_count),
        };
      for (const s of states) Object.assign(release(s.remote), stateOf(s));
      return { revision: Number(revision?.revision ?? 0), registry: { remotes } };
    });
  }

  /** A published version, or undefined. */
  async version(remote: string, version: string): Promise<PublishedVersion | undefined> {
    const row = await this.db
      .selectFrom('release_versions')
      .select(['content_hash', 'file_count', 'published_at'])
      .where('remote', '=', remote)
      .where('version', '=', version)
      .executeTakeFirst();
    return row
      ? {
          publishedAt: new Date(Number(row.published_at)).toISOString(),
          contentHash: row.content_hash,
          fileCount: Number(row.file_count),
        }
      : undefined;
  }

  /** Every file of a published version (none when it is not published). */
  async files(remote: string, version: string): Promise<StoredReleaseFile[]> {
    const rows = await this.db
      .selectFrom('release_files')
      .select(['path', 'content_type', 'sha256', 'body', 'body_br', 'body_gzip'])
      .where('remote', '=', remote)
      .where('version', '=', version)
      .execute();
    return rows.map((r) => ({
      path: r.path,
      contentType: r.content_type,
      sha256: r.sha256,
      body: Buffer.from(r.body),
      br: r.body_br ? Buffer.from(r.body_br) : undefined,
      gzip: r.body_gzip ? Buffer.from(r.body_gzip) : undefined,
    }));
  }

  /**
   * Stores a version with all of its files in one transaction (a version row never exists without its files) and
   * raises the revision; `state` may change the remote's release state in the same transaction (publish-all makes
   * the version active at once). Answers false, changing nothing, when the version exists already.
   */
  async publish(
    remote: string,
    version: string,
    build: { contentHash: string; files: StoredReleaseFile[]; publishedAt: number },
    state?: (current: ReleaseState) => ReleaseState,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const revision = await this.raiseRevision(trx);
      const exists = await trx
        .selectFrom('release_versions')
        .select('version')
        .where('remote', '=', remote)
        .where('version', '=', version)
        .executeTakeFirst();
      const created = exists === undefined;
      if (created) {
        await trx
          .insertInto('release_versions')
          .values({
            remote,
            version,
            content_hash: build.contentHash,
            file_count: build.files.length,
            published_at: build.publishedAt,
          })
          .execute();
        for (let i = 0; i < build.files.length; i += FILES_PER_INSERT) {
          await trx
            .insertInto('release_files')
            .values(
              build.files.slice(i, i + FILES_PER_INSERT).map((f) => ({
                remote,
                version,
                path: f.path,
                content_type: f.contentType,
                sha256: f.sha256,
                body: f.body,
                body_br: f.br ?? null,
                body_gzip: f.gzip ?? null,
              })),
            )
            .execute();
        }
      }
      if (state) await this.applyState(trx, remote, state);
      await this.notify(trx, revision);
      return created;
    });
  }

  /**
   * Changes a remote's release state in one transaction: `change` sees the state as stored once this transaction
   * holds the write lock (the revision row is updated first), so concurrent commands never lose each other's work.
   */
  async update(remote: string, change: (current: ReleaseState) => ReleaseState): Promise<ReleaseState> {
    return this.db.transaction().execute(async (trx) => {
      const revision = await this.raiseRevision(trx);
      const next = await this.applyState(trx, remote, change);
      await this.notify(trx, revision);
      return next;
    });
  }

  // Taking the write lock first: SQLite's deferred transaction becomes a writer before it reads (no lock upgrade
  // that could fail as busy), and on PostgreSQL the row lock orders concurrent changes one after the other.
  private async raiseRevision(trx: Transaction<Database>): Promise<number> {
    const row = await trx
      .updateTable('release_state')
      .set((eb) => ({ revision: eb('revision', '+', 1) }))
      .where('id', '=', 1)
      .returning('revision')
      .executeTakeFirstOrThrow();
    return Number(row.revision);
  }

  private async applyState(
    trx: Transaction<Database>,
    remote: string,
    change: (current: ReleaseState) => ReleaseState,
  ): Promise<ReleaseState> {
    const row = await trx
      .selectFrom('release_remotes')
      .selectAll()
      .where('remote', '=', remote)
      .executeTakeFirst();
    const next = change(row ? stateOf(row) : { active: undefined, previous: [], canary: undefined });
    const values = {
      active: next.active ?? null,
      previous: JSON.stringify(next.previous),
      canary_version: next.canary?.version ?? null,
      canary_percent: next.canary?.percent ?? null,
    };
    await trx
      .insertInto('release_remotes')
      .values({ remote, ...values })
      .onConflict((oc) => oc.column('remote').doUpdateSet(values))
      .execute();
    return next;
  }

  private async notify(trx: Transaction<Database>, revision: number): Promise<void> {
    // Delivered when the transaction commits, never before: a listener that reads at once sees the change.
    if (this.dialect === 'postgres')
      await sql`select pg_notify(${RELEASES_CHANNEL}, ${String(revision)})`.execute(trx);
  }
}

function stateOf(row: {
  active: string | null;
  previous: string;
  canary_version: string | null;
  canary_percent: number | null;
}): ReleaseState {
  let previous: string[] = [];
  try {
    const parsed = JSON.parse(row.previous) as unknown;
    if (Array.isArray(parsed)) previous = parsed.filter((v): v is string => typeof v === 'string');
  } catch {
    previous = [];
  }
  return {
    active: row.active ?? undefined,
    previous,
    canary:
      row.canary_version && row.canary_percent
        ? { version: row.canary_version, percent: Number(row.canary_percent) }
        : undefined,
  };
}
