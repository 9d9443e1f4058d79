import { readFileSync } from 'node:fs';
import {
  DEPENDENCY_NAMES,
  REMOTE_IDS,
  type DependencyName,
  type DependencyState,
  type OverallState,
  type SystemStatus,
} from 'shared-contracts';
import type { ReleaseRegistry } from '../../releases/release-registry.js';

/** A health probe: true when the dependency answers. Undefined: not configured, a dev stand-in serves. */
export type HealthProbe = (() => Promise<boolean>) | undefined;

/** What {@link SystemStatusService} checks and reads. */
export interface SystemStatusDeps {
  probes: Record<DependencyName, HealthProbe>;
  releases: Pick<ReleaseRegistry, 'read'>;
  now: () => number;
  /** Longest wait for one probe; a slower dependency counts as down (default 2 s). */
  probeTimeoutMs?: number;
  /** How long one answer is reused (default 5 s), so polling pages cannot turn into a probe flood. */
  cacheMs?: number;
  /** The gateway's version (default: its package.json). */
  version?: string;
}

/** Default longest wait for one probe. */
export const DEFAULT_PROBE_TIMEOUT_MS = 2000;
/** Default lifetime of a cached status. */
export const DEFAULT_STATUS_CACHE_MS = 5000;

/** The store of record: when it is unreachable no account can be read and the service is down, not degraded. */
const ESSENTIAL: readonly DependencyName[] = ['database'];

function packageVersion(): string {
  try {
    // src/identity/ops and dist/identity/ops both sit three levels under the package folder.
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Runs a probe bounded by `timeoutMs`: a throw, a false or no answer in time all count as down. */
export async function runProbe(probe: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([probe().catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `SystemStatus` (SPEC.md §7 "Other") and `/readyz`: every dependency probed at once, each bounded by a timeout,
 * the answer cached for a few seconds and shared by concurrent callers. It carries states and versions only — never
 * a host, a URL, a secret or an error text — so it may be shown to anyone.
 */
export class SystemStatusService {
  private readonly startedAt: number;
  private readonly version: string;
  private readonly since = new Map<DependencyName, { state: DependencyState; at: number }>();
  private cached: { at: number; status: SystemStatus } | undefined;
  private running: Promise<SystemStatus> | undefined;

  constructor(private readonly deps: SystemStatusDeps) {
    this.startedAt = deps.now();
    this.version = deps.version ?? packageVersion();
  }

  /** The current status: the cached one while fresh, else a new probe round (one at a time). */
  current(): Promise<SystemStatus> {
    const cacheMs = this.deps.cacheMs ?? DEFAULT_STATUS_CACHE_MS;
    if (this.cached && this.deps.now() - this.cached.at < cacheMs) return Promise.resolve(this.cached.status);
    this.running ??= this.check().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async check(): Promise<SystemStatus> {
    const timeoutMs = this.deps.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
    const states = await Promise.all(
      DEPENDENCY_NAMES.map(async (name): Promise<DependencyState> => {
        const probe = this.deps.probes[name];
        if (!probe) return 'standIn';
        return (await runProbe(probe, timeoutMs)) ? 'ok' : 'down';
      }),
    );
    const at = this.deps.now();
    const dependencies = DEPENDENCY_NAMES.map((name, i) => {
      const state = states[i] ?? 'down';
      const previous = this.since.get(name);
      const since = previous?.state === state ? previous.at : at;
      this.since.set(name, { state, at: since });
      return { name, state, since: new Date(since).toISOString() };
    });
    const status: SystemStatus = {
      status: overall(dependencies),
      checkedAt: new Date(at).toISOString(),
      gateway: { version: this.version, since: new Date(this.startedAt).toISOString() },
      dependencies,
      remotes: this.remotes(),
    };
    this.cached = { at, status };
    return status;
  }

  private remotes(): SystemStatus['remotes'] {
    let registry: ReturnType<Pick<ReleaseRegistry, 'read'>['read']>;
    try {
      registry = this.deps.releases.read();
    } catch {
      registry = { remotes: {} };
    }
    return REMOTE_IDS.map((id) => {
      const release = registry.remotes[id];
      const version = release?.active ?? null;
      const publishedAt = version ? release?.versions[version]?.publishedAt : undefined;
      return {
        id,
        version,
        since: publishedAt ?? null,
        canary: release?.canary ? { version: release.canary.version, percent: release.canary.percent } : null,
      };
    });
  }
}

function overall(dependencies: { name: DependencyName; state: DependencyState }[]): OverallState {
  const down = dependencies.filter((d) => d.state === 'down');
  if (down.length === 0) return 'ok';
  return down.some((d) => ESSENTIAL.includes(d.name)) ? 'down' : 'degraded';
}
