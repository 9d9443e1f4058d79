import { sql, type Kysely, type Transaction } from 'kysely';
import type { CanaryGuard, ReleaseAction } from 'shared-contracts/console';
import type { Dialect } from './database.js';
import { countsSince, type VersionCounts } from './release-health.repository.js';
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
  /** Who published it (a console user's username or `cli:<os user>`); null for versions from before ADR 0059. */
  publishedBy: string | null;
  /** ISO time and actor of the last time it was made the active version; null when it never was. */
  activatedAt: string | null;
  activatedBy: string | null;
  /** Bytes on the wire (Brotli, else gzip, else plain) of its JS and CSS files. */
  bytesOnWire: number;
  /** The shared versions its federation manifest requires, by package (`react: ^19.3.1`). */
  requires: Record<string, string>;
}

/** The canary guard's defaults (ADR 0059): 100 page loads, above 2 % and above twice the active version's rate. */
export const DEFAULT_CANARY_GUARD: CanaryGuard = { minPageLoads: 100, minFailureRate: 0.02, ratio: 2 };

/** A remote's release state: which version everyone gets, and an optional canary. */
export interface RemoteRelease {
  active: string | undefined;
  /** Earlier active versions, newest last; `rollback` returns to the last one. */
  previous: string[];
  canary: { version: string; percent: number } | undefined;
  /**
   * When (ISO) and by whom the running canary was started, and what its start minute's health counts held then
   * (the guard counts only what came after); undefined without a canary.
   */
  canaryStarted: { at: string; by: string | null; baseline: VersionCounts[] } | undefined;
  /** The canary guard's settings of this remote. */
  guard: CanaryGuard;
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

/** A release event to record (the history, ADR 0059). */
export interface NewReleaseEvent {
  action: ReleaseAction;
  version: string | null;
  percent: number | null;
  reason: string | null;
  /** The guard's figures when it ended a canary. */
  figures: Record<string, number> | null;
}

/** Who makes a change and when: recorded with its events, the version it activates and the canary it starts. */
export interface ChangeBy {
  /** A console user's username, `cli:<os user>` or `guard`. */
  actor: string;
  /** ms. */
  at: number;
  /** The events the change records, from the state before and after it (none: nothing is recorded). */
  events: (before: ReleaseState, after: ReleaseState) => NewReleaseEvent[];
}

/** A stored release event. */
export interface StoredReleaseEvent extends NewReleaseEvent {
  id: string;
  /** ms. */
  at: number;
  remote: string;
  actor: string;
}

/** What {@link ReleaseRepository.events} selects: a remote, and a period [from, to) in ms. */
export interface ReleaseEventFilter {
  remote?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  limit?: number | undefined;
}

/** Thrown inside a change's transaction to roll it back: the change found nothing to do. */
class NoChange extends Error {}

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
        .select(VERSION_COLUMNS)
        .select('remote')
        .orderBy('published_at')
        .orderBy('version')
        .execute();
      const states = await trx.selectFrom('release_remotes').selectAll().execute();
      const remotes: RegistryFile['remotes'] = {};
      const release = (id: string): RemoteRelease =>
        (remotes[id] ??= {
          active: undefined,
          previous: [],
          canary: undefined,
          canaryStarted: undefined,
          guard: DEFAULT_CANARY_GUARD,
          versions: {},
        });
      for (const v of versions) release(v.remote).versions[v.version] = versionOf(v);
      for (const s of states)
        Object.assign(release(s.remote), stateOf(s), {
          canaryStarted:
            s.canary_version && s.canary_started_at !== null
              ? {
                  at: new Date(Number(s.canary_started_at)).toISOString(),
                  by: s.canary_started_by,
                  baseline: baselineOf(s.canary_baseline),
                }
              : undefined,
          guard: guardOf(s),
        });
      return { revision: Number(revision?.revision ?? 0), registry: { remotes } };
    });
  }

  /** A published version, or undefined. */
  async version(remote: string, version: string): Promise<PublishedVersion | undefined> {
    const row = await this.db
      .selectFrom('release_versions')
      .select(VERSION_COLUMNS)
      .where('remote', '=', remote)
      .where('version', '=', version)
      .executeTakeFirst();
    return row ? versionOf(row) : undefined;
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
    build: {
      contentHash: string;
      files: StoredReleaseFile[];
      publishedAt: number;
      publishedBy?: string | null;
      bytesOnWire?: number;
      requires?: Record<string, string>;
    },
    state?: (current: ReleaseState) => ReleaseState,
    by?: ChangeBy,
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
            published_by: build.publishedBy ?? null,
            bytes_on_wire: build.bytesOnWire ?? 0,
            requires: JSON.stringify(build.requires ?? {}),
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
      if (created && by)
        await this.insertEvents(trx, remote, by, [
          { action: 'published', version, percent: null, reason: null, figures: null },
        ]);
      if (state) await this.applyState(trx, remote, state, by);
      await this.notify(trx, revision);
      return created;
    });
  }

  /**
   * Changes a remote's release state in one transaction: `change` sees the state as stored once this transaction
   * holds the write lock (the revision row is updated first), so concurrent commands never lose each other's work.
   */
  async update(
    remote: string,
    change: (current: ReleaseState) => ReleaseState,
    by?: ChangeBy,
  ): Promise<ReleaseState>;
  /**
   * As above; `change` answering undefined rolls the transaction back (nothing changes, nothing is recorded) and the
   * update answers undefined: a change that applies only to the state it was decided on (the guard's).
   */
  async update(
    remote: string,
    change: (current: ReleaseState) => ReleaseState | undefined,
    by?: ChangeBy,
  ): Promise<ReleaseState | undefined>;
  async update(
    remote: string,
    change: (current: ReleaseState) => ReleaseState | undefined,
    by?: ChangeBy,
  ): Promise<ReleaseState | undefined> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const revision = await this.raiseRevision(trx);
        const next = await this.applyState(
          trx,
          remote,
          (current) => {
            const changed = change(current);
            if (!changed) throw new NoChange();
            return changed;
          },
          by,
        );
        await this.notify(trx, revision);
        return next;
      });
    } catch (error) {
      if (error instanceof NoChange) return undefined;
      throw error;
    }
  }

  /** Sets a remote's canary guard settings (followed by every replica with the revision) and records the event. */
  async setGuard(remote: string, guard: CanaryGuard, by: ChangeBy): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const revision = await this.raiseRevision(trx);
      const values = {
        guard_min_page_loads: guard.minPageLoads,
        guard_min_failure_rate: guard.minFailureRate,
        guard_ratio: guard.ratio,
      };
      await trx
        .insertInto('release_remotes')
        .values({ remote, previous: '[]', ...values })
        .onConflict((oc) => oc.column('remote').doUpdateSet(values))
        .execute();
      const state = await this.stateIn(trx, remote);
      await this.insertEvents(trx, remote, by, by.events(state, state));
      await this.notify(trx, revision);
    });
  }

  /** A remote's canary guard settings (the defaults until set). */
  async guard(remote: string): Promise<CanaryGuard> {
    const row = await this.db
      .selectFrom('release_remotes')
      .select(['guard_min_page_loads', 'guard_min_failure_rate', 'guard_ratio'])
      .where('remote', '=', remote)
      .executeTakeFirst();
    return row ? guardOf(row) : DEFAULT_CANARY_GUARD;
  }

  /** Release events, newest first (at most `limit`, default 500). */
  async events(filter: ReleaseEventFilter = {}): Promise<StoredReleaseEvent[]> {
    let query = this.db.selectFrom('release_events').selectAll();
    if (filter.remote !== undefined) query = query.where('remote', '=', filter.remote);
    if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('at', '<', filter.to);
    const rows = await query
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit ?? 500)
      .execute();
    return rows.map((r) => ({
      id: String(r.id),
      at: Number(r.at),
      remote: r.remote,
      action: r.action as ReleaseAction,
      version: r.version,
      percent: r.percent === null ? null : Number(r.percent),
      actor: r.actor,
      reason: r.reason,
      figures: figuresOf(r.figures),
    }));
  }

  private async insertEvents(
    trx: Transaction<Database>,
    remote: string,
    by: ChangeBy,
    events: NewReleaseEvent[],
  ): Promise<void> {
    if (events.length === 0) return;
    await trx
      .insertInto('release_events')
      .values(
        events.map((e) => ({
          at: by.at,
          remote,
          action: e.action,
          version: e.version,
          percent: e.percent,
          actor: by.actor,
          reason: e.reason,
          figures: e.figures ? JSON.stringify(e.figures) : null,
        })),
      )
      .execute();
  }

  private async stateIn(trx: Transaction<Database>, remote: string): Promise<ReleaseState> {
    const row = await trx
      .selectFrom('release_remotes')
      .selectAll()
      .where('remote', '=', remote)
      .executeTakeFirst();
    return row ? stateOf(row) : { active: undefined, previous: [], canary: undefined };
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
    by: ChangeBy | undefined,
  ): Promise<ReleaseState> {
    const row = await trx
      .selectFrom('release_remotes')
      .selectAll()
      .where('remote', '=', remote)
      .executeTakeFirst();
    const before = row ? stateOf(row) : { active: undefined, previous: [], canary: undefined };
    const next = change(before);
    // A new canary version (or none) starts its own clock; a changed share keeps the canary's start.
    // A new canary also keeps what its start minute's health counts held at its start (migration 0033).
    const startedAt = by?.at ?? Date.now();
    const canaryStarted =
      next.canary?.version === before.canary?.version && row
        ? {
            canary_started_at: row.canary_started_at,
            canary_started_by: row.canary_started_by,
            canary_baseline: row.canary_baseline,
          }
        : next.canary
          ? {
              canary_started_at: startedAt,
              canary_started_by: by?.actor ?? null,
              canary_baseline: JSON.stringify(await countsSince(trx, remote, startedAt)),
            }
          : { canary_started_at: null, canary_started_by: null, canary_baseline: null };
    const values = {
      active: next.active ?? null,
      previous: JSON.stringify(next.previous),
      canary_version: next.canary?.version ?? null,
      canary_percent: next.canary?.percent ?? null,
      ...canaryStarted,
    };
    await trx
      .insertInto('release_remotes')
      .values({ remote, ...values })
      .onConflict((oc) => oc.column('remote').doUpdateSet(values))
      .execute();
    if (next.active && next.active !== before.active)
      await trx
        .updateTable('release_versions')
        .set({ activated_at: by?.at ?? Date.now(), activated_by: by?.actor ?? null })
        .where('remote', '=', remote)
        .where('version', '=', next.active)
        .execute();
    if (by) await this.insertEvents(trx, remote, by, by.events(before, next));
    return next;
  }

  private async notify(trx: Transaction<Database>, revision: number): Promise<void> {
    // Delivered when the transaction commits, never before: a listener that reads at once sees the change.
    if (this.dialect === 'postgres')
      await sql`select pg_notify(${RELEASES_CHANNEL}, ${String(revision)})`.execute(trx);
  }
}

const VERSION_COLUMNS = [
  'version',
  'content_hash',
  'file_count',
  'published_at',
  'published_by',
  'activated_at',
  'activated_by',
  'bytes_on_wire',
  'requires',
] as const;

function versionOf(row: {
  content_hash: string;
  file_count: number;
  published_at: number;
  published_by: string | null;
  activated_at: number | null;
  activated_by: string | null;
  bytes_on_wire: number;
  requires: string;
}): PublishedVersion {
  return {
    publishedAt: new Date(Number(row.published_at)).toISOString(),
    contentHash: row.content_hash,
    fileCount: Number(row.file_count),
    publishedBy: row.published_by,
    activatedAt: row.activated_at === null ? null : new Date(Number(row.activated_at)).toISOString(),
    activatedBy: row.activated_by,
    bytesOnWire: Number(row.bytes_on_wire),
    requires: stringRecord(row.requires),
  };
}

function guardOf(row: {
  guard_min_page_loads: number;
  guard_min_failure_rate: number;
  guard_ratio: number;
}): CanaryGuard {
  return {
    minPageLoads: Number(row.guard_min_page_loads),
    minFailureRate: Number(row.guard_min_failure_rate),
    ratio: Number(row.guard_ratio),
  };
}

function parsed(json: string | null): unknown {
  if (json === null) return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

function stringRecord(json: string): Record<string, string> {
  const value = parsed(json);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

function figuresOf(json: string | null): Record<string, number> | null {
  const value = parsed(json);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  return Object.fromEntries(
    Object.entries(value).filter((e): e is [string, number] => typeof e[1] === 'number'),
  );
}

/** A stored baseline (JSON of VersionCounts[]); none when absent or unreadable (a canary started before 0033). */
function baselineOf(text: string | null): VersionCounts[] {
  if (!text) return [];
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((v: unknown) => {
      if (typeof v !== 'object' || v === null) return [];
      const c = v as Record<string, unknown>;
      const n = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : 0);
      return typeof c.version === 'string'
        ? [
            {
              version: c.version,
              pageLoads: n(c.pageLoads),
              loadFailures: n(c.loadFailures),
              clientErrors: n(c.clientErrors),
            },
          ]
        : [];
    });
  } catch {
    return [];
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
