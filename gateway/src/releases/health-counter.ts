import type { Logger } from 'pino';
import type { Metrics } from '../infra/metrics.js';
import {
  minuteOf,
  type HealthCount,
  type ReleaseHealthRepository,
} from '../store/release-health.repository.js';

/** The client error report kind the shell sends when a remote fails to load (shell/src/remotes/remote-loader.ts). */
export const LOAD_FAILURE_KIND = 'remote-load';

/** Options of {@link HealthCounter}. */
export interface HealthCounterOptions {
  repository: Pick<ReleaseHealthRepository, 'addHealth' | 'addClientErrors'>;
  metrics?: Metrics | undefined;
  logger?: Pick<Logger, 'error'> | undefined;
  now?: (() => number) | undefined;
  /** How often the buffered counts go to the store (ms). Default 5000 (HEALTH_FLUSH_MS). */
  flushMs?: number | undefined;
}

/** Counts kept per flush before the oldest are dropped, should the store stay unreachable. */
const MAX_BUFFERED = 10_000;

/**
 * Health per remote version, counted by this replica (ADR 0059): page loads of pages a remote renders, remote-load
 * failures and client error reports, each with the version the browser was given. Counted in memory (no store write
 * on the request's path) and added to the shared store every few seconds and on close, so every replica's traffic
 * counts; also on `/metrics` (labelled remote and version) at once.
 */
export class HealthCounter {
  private health = new Map<string, HealthCount>();
  private clientErrors = new Map<string, HealthCount>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: HealthCounterOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Flushes every `flushMs` until {@link close}. */
  start(): this {
    this.timer = setInterval(() => void this.flush(), this.options.flushMs ?? 5000);
    this.timer.unref();
    return this;
  }

  /** A page a remote renders was served with `version` of it. */
  pageLoad(remote: string, version: string): void {
    this.options.metrics?.inc('release_page_loads_total', { remote, version });
    this.add(this.health, remote, version, 'pageLoad');
  }

  /**
   * A client error report of a remote version: a `remote-load` report is a load failure (and stays a report of its
   * kind for `admin errors`), any other kind a client error.
   */
  clientError(remote: string, version: string, kind: string): void {
    if (kind === LOAD_FAILURE_KIND) {
      this.options.metrics?.inc('release_load_failures_total', { remote, version });
      this.add(this.health, remote, version, 'loadFailure');
    } else {
      this.options.metrics?.inc('release_client_errors_total', { remote, version });
    }
    this.add(this.clientErrors, remote, version, kind);
  }

  private add(into: Map<string, HealthCount>, remote: string, version: string, kind: string): void {
    this.put(into, { minute: minuteOf(this.now()), remote, version, kind, count: 1 });
  }

  private put(into: Map<string, HealthCount>, count: HealthCount): void {
    const key = `${count.minute}\u0000${count.remote}\u0000${count.version}\u0000${count.kind}`;
    const entry = into.get(key);
    if (entry) entry.count += count.count;
    else if (into.size < MAX_BUFFERED) into.set(key, { ...count });
  }

  /** Adds the buffered counts to the store; on failure they stay buffered for the next flush. */
  flush(): Promise<void> {
    this.flushing ??= (async () => {
      const health = [...this.health.values()];
      const clientErrors = [...this.clientErrors.values()];
      this.health = new Map();
      this.clientErrors = new Map();
      const restore = (into: Map<string, HealthCount>, counts: HealthCount[]) => {
        for (const c of counts) this.put(into, c);
      };
      try {
        if (health.length > 0) await this.options.repository.addHealth(health);
      } catch (error) {
        restore(this.health, health);
        this.options.logger?.error({ err: error }, 'health counts not stored; kept for the next flush');
      }
      try {
        if (clientErrors.length > 0) await this.options.repository.addClientErrors(clientErrors);
      } catch (error) {
        restore(this.clientErrors, clientErrors);
        this.options.logger?.error({ err: error }, 'client error counts not stored; kept for the next flush');
      }
    })().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  /** Stops the timer and flushes what is left (the drain's end). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flushing;
    await this.flush();
  }
}
