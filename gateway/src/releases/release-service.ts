import { existsSync, readFileSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { REMOTE_IDS, type RemoteId } from 'shared-contracts';
import {
  HEALTH_WINDOWS,
  type CanaryGuard,
  type HealthWindow,
  type ReleaseAction,
  type ReleaseEvent,
  type ReleaseHealth,
  type ReleasesView,
  type VersionHealth,
} from 'shared-contracts/console';
import type { AuditRepository } from '../store/audit.repository.js';
import type { ReleaseHealthRepository, VersionCounts } from '../store/release-health.repository.js';
import {
  DEFAULT_CANARY_GUARD,
  type ChangeBy,
  type NewReleaseEvent,
  type RegistryFile,
  type ReleaseEventFilter,
  type ReleaseRepository,
  type ReleaseState,
  type StoredReleaseFile,
} from '../store/release.repository.js';
import { contentHash, readBuild } from './release-build.js';
import { incompatibility, requiresOf, shellProvides } from './compatibility.js';

/**
 * What went wrong with a release command, as a code the console answers with (`field` names the request's field it
 * is about) and a one-line message the CLI prints.
 */
export type ReleaseErrorCode =
  | 'unknownRemote'
  | 'unknownVersion'
  | 'invalidValue'
  | 'notABuild'
  | 'overwrite'
  | 'incompatibleBuild'
  | 'releaseAlreadyActive'
  | 'releaseNoCanary'
  | 'releaseNoEarlierVersion';

/** A user mistake in a release command (unknown remote or version, overwrite attempt, an incompatible build...). */
export class ReleaseError extends Error {
  constructor(
    message: string,
    readonly code: ReleaseErrorCode = 'invalidValue',
    readonly field: string = '',
    /** Values of the code's message (the incompatibility's package and versions). */
    readonly values: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ReleaseError';
  }
}

/** What a version name may look like: a package version and a content hash, never a path. */
export const VERSION_PATTERN = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,63}$/;

/** True when `id` is one of the remotes. */
export function isRemoteId(id: string): id is RemoteId {
  return (REMOTE_IDS as readonly string[]).includes(id);
}

/** Who asks for a release change: recorded in the history and the audit trail (ADR 0059). */
export interface ReleaseActor {
  /** A console user's username, `cli:<os user>` or `guard`. */
  actor: string;
  /** The acting user's id (null for the CLI and the guard). */
  userId: string | null;
  reason?: string | null | undefined;
}

/**
 * `unchecked`: skip the compatibility check (the CLI's `--unchecked`: for testing the browser's own refusal of an
 * incompatible build); audited as such.
 */
export interface ReleaseOptions {
  unchecked?: boolean | undefined;
}

/** The guard's figures when it ends a canary (page loads, failures and rates of the canary and the active version). */
export interface GuardFigures {
  canaryPageLoads: number;
  canaryFailures: number;
  canaryFailureRate: number;
  activePageLoads: number;
  activeFailures: number;
  activeFailureRate: number;
  minPageLoads: number;
  minFailureRate: number;
  ratio: number;
}

/** Dependencies of {@link ReleaseService}. */
export interface ReleaseServiceDeps {
  releases: ReleaseRepository;
  health: Pick<ReleaseHealthRepository, 'countsSince'>;
  audit: Pick<AuditRepository, 'record'>;
  /** The versions the served shell provides of the shared packages (compatibility.ts `shellProvides`). */
  shellProvides: () => Record<string, string>;
  now?: (() => number) | undefined;
}

/** The audit kind of each release action (common rules of the console: the action's own kind). */
const AUDIT_KINDS: Record<ReleaseAction, string> = {
  published: 'release.published',
  promoted: 'release.promoted',
  canaryStarted: 'release.canary.started',
  canaryChanged: 'release.canary.changed',
  canaryEnded: 'release.canary.ended',
  canaryEndedByGuard: 'release.canary.ended-by-guard',
  rolledBack: 'release.rolled-back',
  guardChanged: 'release.guard.changed',
};

const WINDOW_MS: Record<HealthWindow, number> = {
  '15m': 15 * 60_000,
  '1h': 3_600_000,
  '24h': 24 * 3_600_000,
};

/** True when `value` is a health window. */
export function isHealthWindow(value: string): value is HealthWindow {
  return (HEALTH_WINDOWS as readonly string[]).includes(value);
}

/** Bytes on the wire of a build: its JS and CSS files as the smallest encoding stored (Brotli, gzip, plain). */
export function bytesOnWire(files: readonly StoredReleaseFile[]): number {
  return files
    .filter((f) => /\.(?:m?js|css)$/.test(f.path))
    .reduce(
      (sum, f) => sum + Math.min(f.body.length, f.br?.length ?? Infinity, f.gzip?.length ?? Infinity),
      0,
    );
}

/** Failures per page load (load failures and client errors); null without page loads. */
export function failureRate(
  counts: Pick<VersionCounts, 'pageLoads' | 'loadFailures' | 'clientErrors'>,
): number | null {
  return counts.pageLoads > 0 ? (counts.loadFailures + counts.clientErrors) / counts.pageLoads : null;
}

function activated(state: ReleaseState, version: string): ReleaseState {
  if (state.active === version) return state;
  return {
    active: version,
    previous: state.active ? [...state.previous, state.active] : state.previous,
    canary: state.canary?.version === version ? undefined : state.canary,
  };
}

/**
 * The one release service of the CLI and the console (ARCHITECTURE.md "Releases", ADR 0033 and 0059): publish,
 * promote, canary, end a canary, roll back, set the canary guard. Each change is one transaction that raises the
 * registry's revision (every replica serves it within seconds) and records its release event; then it is audited
 * with its actor, subject and reason. A build whose federation manifest requires a shared version the shell cannot
 * provide is refused before it is published, promoted or given a canary.
 */
export class ReleaseService {
  private readonly now: () => number;

  constructor(private readonly deps: ReleaseServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  private get releases(): ReleaseRepository {
    return this.deps.releases;
  }

  /**
   * Stores a built `dist/` as `<package version>-<content hash>`. Publishing the same build again changes nothing;
   * a different build under an existing version is refused (builds are immutable), and so is a build requiring a
   * shared version the shell cannot provide.
   */
  async publish(
    id: string,
    distDir: string,
    by: ReleaseActor,
    options: { activate?: boolean } & ReleaseOptions = {},
  ): Promise<{ version: string; created: boolean }> {
    if (!isRemoteId(id))
      throw new ReleaseError(
        `unknown remote "${id}" (one of ${REMOTE_IDS.join(', ')})`,
        'unknownRemote',
        'remote',
      );
    if (!existsSync(distDir) || !statSync(distDir).isDirectory())
      throw new ReleaseError(`${distDir} is not a directory; build the remote first`, 'notABuild');
    if (!existsSync(path.join(distDir, 'remoteEntry.js')))
      throw new ReleaseError(`${distDir} has no remoteEntry.js; is it a remote's build?`, 'notABuild');
    let packageVersion = '0.0.0';
    const pkgFile = path.join(distDir, '..', 'package.json');
    if (existsSync(pkgFile))
      packageVersion =
        (JSON.parse(readFileSync(pkgFile, 'utf8')) as { version?: string }).version ?? packageVersion;
    const hash = contentHash(distDir);
    const version = `${packageVersion}-${hash.slice(0, 10)}`;
    const manifest = path.join(distDir, 'mf-manifest.json');
    const requires = requiresOf(existsSync(manifest) ? readFileSync(manifest) : undefined);
    if (!options.unchecked) this.checkCompatible(id, version, requires);
    return {
      version,
      created: await this.store(id, version, hash, distDir, requires, by, options.activate ?? false, options),
    };
  }

  private async store(
    id: RemoteId,
    version: string,
    hash: string,
    dir: string,
    requires: Record<string, string>,
    by: ReleaseActor,
    activate: boolean,
    options: ReleaseOptions = {},
  ): Promise<boolean> {
    const existing = await this.releases.version(id, version);
    if (existing && existing.contentHash !== hash)
      throw new ReleaseError(
        `${id} ${version} exists with different content; refusing to overwrite`,
        'overwrite',
      );
    if (existing && !activate) return false;
    const files: StoredReleaseFile[] = existing ? [] : await readBuild(dir);
    let promoted = false;
    const change = this.changeBy(by, (before, after) => {
      promoted = before.active !== after.active;
      return promoted ? [this.event('promoted', version, null, by)] : [];
    });
    const created = await this.releases.publish(
      id,
      version,
      {
        contentHash: hash,
        files,
        publishedAt: change.at,
        publishedBy: by.actor,
        bytesOnWire: bytesOnWire(files),
        requires,
      },
      activate ? (state) => activated(state, version) : undefined,
      change,
    );
    if (created) await this.audit('published', id, version, by, uncheckedOf(options));
    // `publish-all` at every start makes nothing active twice: only a change is audited.
    if (promoted) await this.audit('promoted', id, version, by, uncheckedOf(options));
    return created;
  }

  private checkCompatible(id: string, version: string, requires: Record<string, string>): void {
    const found = incompatibility(id, version, requires, this.deps.shellProvides());
    if (found)
      throw new ReleaseError(found.line, 'incompatibleBuild', 'version', {
        remote: id,
        version,
        package: found.package,
        required: found.required,
        provided: found.provided,
      });
  }

  private async known(id: string, version: string, options: ReleaseOptions = {}): Promise<RemoteId> {
    if (!isRemoteId(id)) throw new ReleaseError(`unknown remote "${id}"`, 'unknownRemote', 'remote');
    if (!VERSION_PATTERN.test(version))
      throw new ReleaseError(`"${version}" is not a version`, 'unknownVersion', 'version');
    const published = await this.releases.version(id, version);
    if (!published)
      throw new ReleaseError(`${id} has no published version ${version}`, 'unknownVersion', 'version');
    if (!options.unchecked) this.checkCompatible(id, version, published.requires);
    return id;
  }

  /** Makes a published version the one everyone gets (ending a canary of it). */
  async promote(id: string, version: string, by: ReleaseActor, options: ReleaseOptions = {}): Promise<void> {
    const remote = await this.known(id, version, options);
    let already = false;
    await this.releases.update(
      remote,
      (state) => {
        already = state.active === version;
        return already ? undefined : activated(state, version);
      },
      this.changeBy(by, () => [this.event('promoted', version, null, by)]),
    );
    if (already)
      throw new ReleaseError(`${id} ${version} is already active`, 'releaseAlreadyActive', 'version');
    await this.audit('promoted', remote, version, by, uncheckedOf(options));
  }

  /**
   * Serves `version` to `percent` % (1–99) of browsers (by bucket cookie): starts a canary, or changes the running
   * one's version or share; 0 ends the canary.
   */
  async canary(
    id: string,
    version: string,
    percent: number,
    by: ReleaseActor,
    options: ReleaseOptions = {},
  ): Promise<void> {
    if (percent === 0) {
      await this.endCanary(id, by);
      return;
    }
    if (!Number.isInteger(percent) || percent < 1 || percent > 99)
      throw new ReleaseError(
        'percent must be 1–99 (0 ends the canary; promote serves everyone)',
        'invalidValue',
        'percent',
      );
    const remote = await this.known(id, version, options);
    let action: ReleaseAction = 'canaryStarted';
    let already = false;
    const changed = await this.releases.update(
      remote,
      (state) => {
        already = state.active === version;
        if (already) return undefined;
        if (state.canary?.version === version && state.canary.percent === percent) return undefined;
        action = state.canary?.version === version ? 'canaryChanged' : 'canaryStarted';
        return { ...state, canary: { version, percent } };
      },
      this.changeBy(by, () => [this.event(action, version, percent, by)]),
    );
    if (already)
      throw new ReleaseError(
        `${id} ${version} is the active version; a canary needs another`,
        'releaseAlreadyActive',
        'version',
      );
    if (changed) await this.audit(action, remote, version, by, { percent, ...uncheckedOf(options) });
  }

  /** Ends the running canary: every browser gets the active version on its next load. */
  async endCanary(id: string, by: ReleaseActor): Promise<void> {
    if (!isRemoteId(id)) throw new ReleaseError(`unknown remote "${id}"`, 'unknownRemote', 'remote');
    let ended: string | undefined;
    await this.releases.update(
      id,
      (state) => {
        ended = state.canary?.version;
        return state.canary ? { ...state, canary: undefined } : undefined;
      },
      this.changeBy(by, () => [this.event('canaryEnded', ended ?? null, null, by)]),
    );
    if (!ended) throw new ReleaseError(`${id} has no canary`, 'releaseNoCanary');
    await this.audit('canaryEnded', id, ended, by);
  }

  /**
   * The guard's end of a canary: only while that same canary still runs (two replicas judging it at once record one
   * event); answers whether this call ended it.
   */
  async endCanaryByGuard(id: RemoteId, version: string, figures: GuardFigures): Promise<boolean> {
    const by: ReleaseActor = { actor: 'guard', userId: null, reason: null };
    const changed = await this.releases.update(
      id,
      (state) => (state.canary?.version === version ? { ...state, canary: undefined } : undefined),
      this.changeBy(by, () => [
        { action: 'canaryEndedByGuard', version, percent: null, reason: null, figures: { ...figures } },
      ]),
    );
    if (!changed) return false;
    await this.audit('canaryEndedByGuard', id, version, by, { figures });
    return true;
  }

  /** Returns to the previously active version and ends any canary; answers that version. */
  async rollback(id: string, by: ReleaseActor): Promise<string> {
    if (!isRemoteId(id)) throw new ReleaseError(`unknown remote "${id}"`, 'unknownRemote', 'remote');
    let back: string | undefined;
    await this.releases.update(
      id,
      (state) => {
        back = state.previous.at(-1);
        if (!back) return undefined;
        return { active: back, previous: state.previous.slice(0, -1), canary: undefined };
      },
      this.changeBy(by, () => [this.event('rolledBack', back ?? null, null, by)]),
    );
    if (!back)
      throw new ReleaseError(`${id} has no earlier version to roll back to`, 'releaseNoEarlierVersion');
    await this.audit('rolledBack', id, back, by);
    return back;
  }

  /** Sets a remote's canary guard settings. */
  async setGuard(id: string, guard: CanaryGuard, by: ReleaseActor): Promise<void> {
    if (!isRemoteId(id)) throw new ReleaseError(`unknown remote "${id}"`, 'unknownRemote', 'remote');
    if (!Number.isInteger(guard.minPageLoads) || guard.minPageLoads < 1 || guard.minPageLoads > 1_000_000)
      throw new ReleaseError(
        'min page loads must be a whole number 1–1000000',
        'invalidValue',
        'minPageLoads',
      );
    if (!Number.isFinite(guard.minFailureRate) || guard.minFailureRate < 0 || guard.minFailureRate > 1)
      throw new ReleaseError('min failure rate must be 0–1', 'invalidValue', 'minFailureRate');
    if (!Number.isFinite(guard.ratio) || guard.ratio < 1 || guard.ratio > 100)
      throw new ReleaseError('ratio must be 1–100', 'invalidValue', 'ratio');
    await this.releases.setGuard(
      id,
      guard,
      this.changeBy(by, () => [{ ...this.event('guardChanged', null, null, by), figures: { ...guard } }]),
    );
    await this.audit('guardChanged', id, null, by, { guard });
  }

  /** A remote's canary guard settings. */
  guard(id: RemoteId): Promise<CanaryGuard> {
    return this.releases.guard(id);
  }

  /** The releases page: every remote's active version, canary, guard and versions (newest first). */
  async view(): Promise<ReleasesView> {
    const { registry } = await this.releases.read();
    return {
      remotes: REMOTE_IDS.map((id) => {
        const release = registry.remotes[id];
        const versions = Object.entries(release?.versions ?? {})
          .map(([version, v]) => ({
            version,
            publishedAt: v.publishedAt,
            publishedBy: v.publishedBy,
            activatedAt: v.activatedAt,
            activatedBy: v.activatedBy,
            bytesOnWire: v.bytesOnWire,
            requires: v.requires,
          }))
          .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || b.version.localeCompare(a.version));
        return {
          id,
          active: release?.active ?? null,
          canary: release?.canary
            ? {
                version: release.canary.version,
                percent: Math.min(99, Math.max(1, release.canary.percent)),
                startedAt: release.canaryStarted?.at ?? null,
                startedBy: release.canaryStarted?.by ?? null,
              }
            : null,
          guard: release?.guard ?? DEFAULT_CANARY_GUARD,
          versions,
        };
      }),
    };
  }

  /** The history, newest first: of one remote or all, days `from`–`to` inclusive (UTC, `YYYY-MM-DD`). */
  async history(filter: { remote?: string; from?: string; to?: string } = {}): Promise<ReleaseEvent[]> {
    const day = (text: string | undefined, field: string): number | undefined => {
      if (text === undefined) return undefined;
      const at = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00.000Z`) : NaN;
      if (!Number.isFinite(at) || new Date(at).toISOString().slice(0, 10) !== text)
        throw new ReleaseError(`"${text}" is not a day (YYYY-MM-DD)`, 'invalidValue', field);
      return at;
    };
    if (filter.remote !== undefined && !isRemoteId(filter.remote))
      throw new ReleaseError(`unknown remote "${filter.remote}"`, 'unknownRemote', 'remote');
    const from = day(filter.from, 'from');
    const to = day(filter.to, 'to');
    const query: ReleaseEventFilter = {
      remote: filter.remote,
      from,
      to: to === undefined ? undefined : to + 24 * 3_600_000,
    };
    const events = await this.releases.events(query);
    return events.flatMap((e) =>
      isRemoteId(e.remote)
        ? [
            {
              id: e.id,
              at: new Date(e.at).toISOString(),
              remote: e.remote,
              action: e.action,
              version: e.version,
              percent: e.percent,
              actor: e.actor,
              reason: e.reason,
              figures: e.figures,
            },
          ]
        : [],
    );
  }

  /** Each version's health over a window: the active version first, then the canary, then earlier ones seen. */
  async health(id: string, window: HealthWindow): Promise<ReleaseHealth> {
    if (!isRemoteId(id)) throw new ReleaseError(`unknown remote "${id}"`, 'unknownRemote', 'remote');
    const [{ registry }, counts] = await Promise.all([
      this.releases.read(),
      this.deps.health.countsSince(id, this.now() - WINDOW_MS[window]),
    ]);
    const release = registry.remotes[id];
    const byVersion = new Map(counts.map((c) => [c.version, c]));
    const health = (version: string, role: VersionHealth['role']): VersionHealth => {
      const c = byVersion.get(version) ?? { version, pageLoads: 0, loadFailures: 0, clientErrors: 0 };
      return {
        version,
        role,
        pageLoads: c.pageLoads,
        loadFailures: c.loadFailures,
        clientErrors: c.clientErrors,
        failureRate: failureRate(c),
      };
    };
    const versions: VersionHealth[] = [];
    if (release?.active) versions.push(health(release.active, 'active'));
    if (release?.canary) versions.push(health(release.canary.version, 'canary'));
    const shown = new Set(versions.map((v) => v.version));
    for (const c of counts)
      if (!shown.has(c.version) && release?.versions[c.version]) versions.push(health(c.version, 'earlier'));
    return { remote: id, window, versions };
  }

  private changeBy(by: ReleaseActor, events: ChangeBy['events']): ChangeBy {
    return { actor: by.actor, at: this.now(), events };
  }

  private event(
    action: ReleaseAction,
    version: string | null,
    percent: number | null,
    by: ReleaseActor,
  ): NewReleaseEvent {
    return { action, version, percent, reason: by.reason ?? null, figures: null };
  }

  private async audit(
    action: ReleaseAction,
    remote: RemoteId,
    version: string | null,
    by: ReleaseActor,
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    await this.deps.audit.record({
      at: this.now(),
      kind: AUDIT_KINDS[action],
      userId: by.userId,
      ip: null,
      data: {
        actor: by.actor,
        subject: version ? `${remote}@${version}` : remote,
        reason: by.reason ?? null,
        ...extra,
      },
    });
  }

  /** The registry as stored. */
  async read(): Promise<RegistryFile> {
    return (await this.releases.read()).registry;
  }

  /**
   * Imports the per-replica release store of an older install (`<dataDir>/releases/registry.json` and its version
   * folders) once: every version whose folder is there, then each remote's active, earlier and canary versions as
   * far as they were imported. The file is renamed `registry.json.imported` afterwards, so it never runs twice.
   * Answers the lines to print (none when there is nothing to import).
   */
  async importLegacy(dataDir: string): Promise<string[]> {
    const root = path.join(dataDir, 'releases');
    const file = path.join(root, 'registry.json');
    if (!existsSync(file)) return [];
    const legacy = JSON.parse(readFileSync(file, 'utf8')) as {
      remotes?: Record<
        string,
        {
          active?: string;
          previous?: string[];
          canary?: { version: string; percent: number };
          versions?: Record<string, unknown>;
        }
      >;
    };
    const lines: string[] = [];
    for (const [id, release] of Object.entries(legacy.remotes ?? {})) {
      if (!isRemoteId(id)) continue;
      const imported = new Set<string>();
      for (const version of Object.keys(release.versions ?? {})) {
        const dir = path.join(root, id, version);
        if (!VERSION_PATTERN.test(version) || !existsSync(path.join(dir, 'remoteEntry.js'))) continue;
        const hash = contentHash(dir);
        const existing = await this.releases.version(id, version);
        if (!existing)
          await this.store(id, version, hash, dir, requiresOf(readManifest(dir)), LEGACY_IMPORT, false);
        imported.add(version);
      }
      await this.releases.update(id, (state) => {
        // A remote the store already manages keeps its state: the import never undoes a newer command.
        if (state.active) return state;
        const active = release.active && imported.has(release.active) ? release.active : undefined;
        const canary =
          release.canary && imported.has(release.canary.version) && active ? release.canary : undefined;
        return {
          active,
          previous: (release.previous ?? []).filter((v) => imported.has(v)),
          canary,
        };
      });
      lines.push(`${id}: imported ${imported.size} version(s) from ${file}`);
    }
    renameSync(file, `${file}.imported`);
    return lines;
  }
}

function uncheckedOf(options: ReleaseOptions): Record<string, unknown> {
  return options.unchecked ? { unchecked: true } : {};
}

/** Who an import of the per-replica store of an older install is recorded as. */
const LEGACY_IMPORT: ReleaseActor = {
  actor: 'cli:import',
  userId: null,
  reason: 'imported from DATA_DIR/releases',
};

function readManifest(dir: string): Buffer | undefined {
  const file = path.join(dir, 'mf-manifest.json');
  return existsSync(file) ? readFileSync(file) : undefined;
}

/**
 * The release service over a store (the gateway's and the CLI's alike): its releases, health counts and audit
 * trail, and the shell served from `shellDist` as what builds must be compatible with.
 */
export function createReleaseService(
  store: {
    releases: ReleaseRepository;
    audit: Pick<AuditRepository, 'record'>;
    releaseHealth: Pick<ReleaseHealthRepository, 'countsSince'>;
  },
  shellDist: string,
  now?: () => number,
): ReleaseService {
  return new ReleaseService({
    releases: store.releases,
    health: store.releaseHealth,
    audit: store.audit,
    shellProvides: () => shellProvides(shellDist),
    now,
  });
}
