import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import { REMOTE_IDS, type RemoteId, type RemotesManifest } from 'shared-contracts';
import {
  RELEASES_CHANNEL,
  type RegistryFile,
  type ReleaseRepository,
  type RemoteRelease,
  type StoredReleaseFile,
} from '../store/release.repository.js';
import { isRemoteId, VERSION_PATTERN } from './release-service.js';

export { isRemoteId } from './release-service.js';
export type { RegistryFile, RemoteRelease } from '../store/release.repository.js';

/** A release file as this replica holds it in memory, ready to send. */
export interface ServedReleaseFile {
  contentType: string;
  /** Strong validator of the bytes (`sha256`); each encoding gets its own. */
  sha256: string;
  body: Buffer;
  br: Buffer | undefined;
  gzip: Buffer | undefined;
}

/** One version's files, by path. */
type LoadedVersion = Map<string, ServedReleaseFile>;

/** Options of {@link ReleaseRegistry}. */
export interface ReleaseRegistryOptions {
  /** How often the registry's revision is compared (ms): the safety net under notifications. Default 1000. */
  pollMs?: number;
  /**
   * PostgreSQL to LISTEN on for registry changes (the NOTIFY of each change's transaction): a change is then served
   * within the time it takes to load its files, the poll only catching what a lost connection missed.
   */
  listen?: { connectionString: string } | undefined;
  /** Versions kept in memory besides the announced ones (earlier versions pages still ask chunks of). Default 10. */
  extraVersions?: number;
  logger?: Pick<Logger, 'warn' | 'info'> | undefined;
}

const key = (id: string, version: string) => `${id}/${version}`;

/** The manifest one browser gets from a registry: canary when its bucket (0–99) is below the canary's percent. */
export function manifestOf(registry: RegistryFile, bucket: number): RemotesManifest {
  const remotes: RemotesManifest['remotes'] = {};
  for (const id of REMOTE_IDS) {
    const release = registry.remotes[id];
    if (!release?.active) continue;
    const version =
      release.canary && bucket < release.canary.percent ? release.canary.version : release.active;
    remotes[id] = { entry: `/remotes/${id}/${version}/remoteEntry.js`, version };
  }
  return { remotes };
}

/** The versions a remote's release state announces: its active one and its canary. */
function announced(release: RemoteRelease | undefined): string[] {
  if (!release?.active) return [];
  return release.canary ? [release.active, release.canary.version] : [release.active];
}

/**
 * This replica's view of the release registry in the store (ARCHITECTURE.md "Releases", ADR 0033): the registry
 * and, in memory, every file of each version it announces. A change in the store (any replica's or machine's CLI)
 * is seen by comparing the registry's revision every `pollMs`, and at once on a PostgreSQL notification; the new
 * state replaces the one served only once every file of the versions it announces is loaded and checked, remote by
 * remote, so `/remotes/manifest.json` and the first paint never name a file this replica cannot send. Reads are
 * synchronous (they answer from memory); `ready` settles after the first load.
 */
export class ReleaseRegistry {
  /** Settles once the first load was tried (a request before it waits, instead of meeting an empty registry). */
  readonly ready: Promise<void>;
  private markReady!: () => void;
  private served: { revision: number; registry: RegistryFile } = { revision: -1, registry: { remotes: {} } };
  /** Files of loaded versions, with the last time each version was announced or asked for. */
  private readonly loaded = new Map<string, { files: LoadedVersion; usedAt: number }>();
  private readonly loading = new Map<string, Promise<LoadedVersion | undefined>>();
  private refreshing: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private listener: pg.Client | undefined;
  private listenRetry: NodeJS.Timeout | undefined;
  private closed = false;
  private failing = false;
  /** Versions a refresh is about to announce: never evicted while it loads the others. */
  private readonly pinned = new Set<string>();
  /** Remote and revision of each "not switched" warning already logged (one line per change, not per check). */
  private readonly warned = new Set<string>();

  constructor(
    private readonly releases: ReleaseRepository,
    private readonly options: ReleaseRegistryOptions = {},
  ) {
    this.ready = new Promise((resolve) => (this.markReady = resolve));
  }

  /** Loads the registry once, then follows its changes (poll, and LISTEN on PostgreSQL). */
  async start(): Promise<void> {
    this.timer = setInterval(() => void this.refresh(), this.options.pollMs ?? 1000);
    // The HTTP server keeps the process alive; the poll must not keep a finished CLI or test run alive.
    this.timer.unref();
    if (this.options.listen) this.listen(this.options.listen.connectionString);
    await this.refresh();
  }

  /** Stops following the store. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.listenRetry);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    await this.refreshing;
  }

  /** The registry this replica serves: every remote's state as far as its files are loaded. */
  read(): RegistryFile {
    return this.served.registry;
  }

  /** The revision of the store's registry this replica serves. */
  revision(): number {
    return this.served.revision;
  }

  /** The manifest one browser gets (see {@link manifestOf}). */
  manifest(bucket: number): RemotesManifest {
    return manifestOf(this.served.registry, bucket);
  }

  /** True when `version` is a published version of remote `id` (as far as this replica knows). */
  isPublished(id: RemoteId, version: string): boolean {
    return VERSION_PATTERN.test(version) && Object.hasOwn(this.read().remotes[id]?.versions ?? {}, version);
  }

  /** A file of a version held in memory (every announced version's are), or undefined. */
  file(id: RemoteId, version: string, path: string): ServedReleaseFile | undefined {
    const entry = this.loaded.get(key(id, version));
    if (!entry) return undefined;
    entry.usedAt = Date.now();
    return entry.files.get(path);
  }

  /**
   * A file of any published version: from memory, else after loading the version from the store (a page that
   * loaded an earlier version's entry still asks for its chunks after a promote).
   */
  async fileOfPublished(id: RemoteId, version: string, path: string): Promise<ServedReleaseFile | undefined> {
    const inMemory = this.file(id, version, path);
    if (inMemory || !this.isPublished(id, version)) return inMemory;
    const files = await this.load(id, version).catch(() => undefined);
    return files?.get(path);
  }

  /** Compares the store's revision with the one served and, when it moved, loads and switches to the new state. */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.again = false;
        await this.refreshOnce();
      } while (this.again && !this.closed);
    })().finally(() => {
      this.refreshing = undefined;
      this.markReady();
    });
    return this.refreshing;
  }

  private async refreshOnce(): Promise<void> {
    if (this.closed) return;
    try {
      if ((await this.releases.revision()) === this.served.revision) return;
      const { revision, registry } = await this.releases.read();
      const next: RegistryFile = { remotes: {} };
      let complete = true;
      for (const [id, release] of Object.entries(registry.remotes))
        for (const version of announced(release)) this.pinned.add(key(id, version));
      for (const [id, release] of Object.entries(registry.remotes)) {
        if (!release || !isRemoteId(id)) continue;
        const loads = await Promise.allSettled(announced(release).map((v) => this.load(id, v)));
        if (loads.every((l) => l.status === 'fulfilled' && l.value)) {
          next.remotes[id] = release;
          continue;
        }
        // Not every file is here yet (or the store failed mid-way): this remote stays as it was served, with the
        // versions list of the store, and the next check tries again.
        complete = false;
        const before = this.served.registry.remotes[id];
        next.remotes[id] = before
          ? { ...before, guard: release.guard, versions: { ...release.versions, ...before.versions } }
          : {
              active: undefined,
              previous: [],
              canary: undefined,
              canaryStarted: undefined,
              guard: release.guard,
              versions: release.versions,
            };
        if (!this.warned.has(`${id}@${revision}`)) {
          this.warned.add(`${id}@${revision}`);
          this.options.logger?.warn(
            { remote: id, revision },
            'release not switched: its files are not loaded yet; trying again',
          );
        }
      }
      this.served = { revision: complete ? revision : this.served.revision, registry: next };
      this.pinned.clear();
      this.evict();
      if (this.failing) this.options.logger?.info('release registry readable again');
      this.failing = false;
    } catch (error) {
      this.pinned.clear();
      if (!this.failing)
        this.options.logger?.warn(
          { err: error },
          'release registry not readable; serving the last one loaded',
        );
      this.failing = true;
    }
  }

  /**
   * Loads every file of a version into memory (once; concurrent callers share the load) and checks it is whole:
   * as many files as the version row says, each matching its hash. Answers undefined when it is not.
   */
  private load(id: RemoteId, version: string): Promise<LoadedVersion | undefined> {
    const k = key(id, version);
    const loaded = this.loaded.get(k);
    if (loaded) {
      loaded.usedAt = Date.now();
      return Promise.resolve(loaded.files);
    }
    let pending = this.loading.get(k);
    if (!pending) {
      pending = (async () => {
        const [published, files] = await Promise.all([
          this.releases.version(id, version),
          this.releases.files(id, version),
        ]);
        if (!published || files.length !== published.fileCount || !files.every(whole)) return undefined;
        const byPath: LoadedVersion = new Map(
          files.map((f) => [
            f.path,
            { contentType: f.contentType, sha256: f.sha256, body: f.body, br: f.br, gzip: f.gzip },
          ]),
        );
        this.loaded.set(k, { files: byPath, usedAt: Date.now() });
        // Versions loaded on demand (earlier ones) stay bounded whatever pages ask for.
        this.evict();
        return byPath;
      })().finally(() => this.loading.delete(k));
      this.loading.set(k, pending);
    }
    return pending;
  }

  /** Forgets versions no longer announced, keeping the `extraVersions` most recently used. */
  private evict(): void {
    const keep = new Set(this.pinned);
    for (const [id, release] of Object.entries(this.served.registry.remotes))
      for (const version of announced(release)) keep.add(key(id, version));
    const others = [...this.loaded.entries()]
      .filter(([k]) => !keep.has(k))
      .sort((a, b) => b[1].usedAt - a[1].usedAt);
    for (const [k] of others.slice(this.options.extraVersions ?? 10)) this.loaded.delete(k);
  }

  /** LISTEN for registry changes on a connection of its own; reconnects after a loss (the poll covers the gap). */
  private listen(connectionString: string): void {
    if (this.closed) return;
    const client = new pg.Client({ connectionString });
    this.listener = client;
    const retry = () => {
      if (this.listener !== client || this.closed) return;
      this.listener = undefined;
      client.end().catch(() => undefined);
      this.listenRetry = setTimeout(() => this.listen(connectionString), 2000);
      this.listenRetry.unref();
    };
    client.on('error', retry);
    client.on('end', retry);
    client.on('notification', () => void this.refresh());
    client
      .connect()
      .then(() => client.query(`listen ${RELEASES_CHANNEL}`))
      // Whatever changed while the connection was down is caught up at once.
      .then(() => this.refresh())
      .catch(retry);
  }
}

/** A file whose bytes are the ones published (a truncated or altered row is never served). */
function whole(file: StoredReleaseFile): boolean {
  return createHash('sha256').update(file.body).digest('hex') === file.sha256;
}

/**
 * A started {@link ReleaseRegistry} over the store: it listens on PostgreSQL when `databaseUrl` is set (the
 * server's DATABASE_URL), else polls alone (SQLite: one machine, the poll is a read of one row).
 */
export function followReleases(
  releases: ReleaseRepository,
  databaseUrl: string | undefined,
  logger?: ReleaseRegistryOptions['logger'],
): ReleaseRegistry {
  const registry = new ReleaseRegistry(releases, {
    listen: databaseUrl ? { connectionString: databaseUrl } : undefined,
    logger,
  });
  void registry.start();
  return registry;
}
