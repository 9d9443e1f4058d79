import type { Logger } from 'pino';
import { REMOTE_IDS } from 'shared-contracts';
import { countsAfter, type ReleaseHealthRepository } from '../store/release-health.repository.js';
import type { ReleaseRepository } from '../store/release.repository.js';
import { failureRate, type GuardFigures, type ReleaseService } from './release-service.js';

/** Options of {@link CanaryGuard}. */
export interface CanaryGuardOptions {
  releases: Pick<ReleaseRepository, 'read'>;
  health: Pick<ReleaseHealthRepository, 'countsSince'>;
  service: Pick<ReleaseService, 'endCanaryByGuard'>;
  logger?: Pick<Logger, 'warn' | 'error'> | undefined;
  /** How often running canaries are judged (ms). Default 5000 (CANARY_GUARD_INTERVAL_MS). */
  intervalMs?: number | undefined;
}

/**
 * The guard's rule (ADR 0059): a canary whose page loads since it started reach `minPageLoads` and whose failure
 * rate exceeds both `minFailureRate` and `ratio` times the active version's rate over the same period is ended.
 * Answers the figures when it is to be ended, else undefined.
 */
export function judge(
  canary: { pageLoads: number; loadFailures: number; clientErrors: number },
  active: { pageLoads: number; loadFailures: number; clientErrors: number },
  guard: { minPageLoads: number; minFailureRate: number; ratio: number },
): GuardFigures | undefined {
  if (canary.pageLoads < guard.minPageLoads) return undefined;
  const canaryRate = failureRate(canary) ?? 0;
  const activeRate = failureRate(active) ?? 0;
  if (!(canaryRate > guard.minFailureRate && canaryRate > guard.ratio * activeRate)) return undefined;
  return {
    canaryPageLoads: canary.pageLoads,
    canaryFailures: canary.loadFailures + canary.clientErrors,
    canaryFailureRate: canaryRate,
    activePageLoads: active.pageLoads,
    activeFailures: active.loadFailures + active.clientErrors,
    activeFailureRate: activeRate,
    minPageLoads: guard.minPageLoads,
    minFailureRate: guard.minFailureRate,
    ratio: guard.ratio,
  };
}

/**
 * The canary guard, run by every replica: every few seconds it reads each running canary and the health counts of
 * every replica since it started, and ends a failing one through the release service (conditionally: only while that
 * canary still runs, so replicas judging it at once record one event), audited with the figures and logged. Browsers
 * given the ended canary get the active version on their next load (the manifest no longer names it).
 */
export class CanaryGuard {
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<string[]> | undefined;

  constructor(private readonly options: CanaryGuardOptions) {}

  /** Checks every `intervalMs` until {@link stop}. */
  start(): this {
    this.timer = setInterval(() => void this.check(), this.options.intervalMs ?? 5000);
    this.timer.unref();
    return this;
  }

  /** Stops checking (waits for a check under way). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.checking;
  }

  /** Judges every running canary once; answers the remotes whose canary this check ended. */
  check(): Promise<string[]> {
    this.checking ??= this.checkOnce()
      .catch((error: unknown) => {
        this.options.logger?.error({ err: error }, 'canary guard check failed');
        return [];
      })
      .finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async checkOnce(): Promise<string[]> {
    const { registry } = await this.options.releases.read();
    const ended: string[] = [];
    for (const id of REMOTE_IDS) {
      const release = registry.remotes[id];
      if (!release?.active || !release.canary || !release.canaryStarted) continue;
      // Counts are kept per minute: what the start minute held before the canary started is not the canary's.
      const counts = countsAfter(
        await this.options.health.countsSince(id, Date.parse(release.canaryStarted.at)),
        release.canaryStarted.baseline,
      );
      const none = { pageLoads: 0, loadFailures: 0, clientErrors: 0 };
      const canary = counts.find((c) => c.version === release.canary!.version) ?? none;
      const active = counts.find((c) => c.version === release.active) ?? none;
      const figures = judge(canary, active, release.guard);
      if (!figures) continue;
      if (await this.options.service.endCanaryByGuard(id, release.canary.version, figures)) {
        ended.push(id);
        this.options.logger?.warn(
          { remote: id, version: release.canary.version, figures },
          'canary ended by the guard: its failure rate is above the guard’s limits',
        );
      }
    }
    return ended;
  }
}
