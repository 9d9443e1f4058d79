import type { Logger } from 'pino';

/** The outside services a replica needs to answer: the SQL store and, at scale, Redis. */
export type DependencyKey = 'database' | 'redis';

/** How long a client should wait before it tries again while a dependency is down (seconds, `Retry-After`). */
export const RETRY_AFTER_SECONDS = 5;

// Node's socket errors that mean "the other end is not there (any more)".
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// PostgreSQL SQLSTATEs of a server going away or not accepting connections yet: class 08 (connection exception),
// 57P01-57P03 (admin/crash shutdown, cannot connect now: the start-up window after a restart), 53300 (too many
// connections). See https://www.postgresql.org/docs/current/errcodes-appendix.html.
const PG_UNAVAILABLE = /^(08...|57P0[123]|53300)$/;

// Messages of pg (pool and client) and ioredis for a connection that is gone or cannot be had; they carry no code.
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/, // pg: the server closed the connection (restart, kill)
  /^timeout exceeded when trying to connect/, // pg-pool: connectionTimeoutMillis while the server is down
  /^Client has encountered a connection error and is not queryable/, // pg: a client whose socket failed
  /^Connection is closed\.?$/, // ioredis: command on a closed connection
  /enableOfflineQueue options is false/, // ioredis: command while reconnecting (we never queue: S8)
  /^Reached the max retries per request limit/, // ioredis MaxRetriesPerRequestError
];

/**
 * True when an error (or one of its causes) says the database or Redis could not be reached, as opposed to a bug or
 * a refused statement: such a request is answered 503 + Retry-After, not 500 (the client may try again shortly).
 */
export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const { code, message, name, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    name?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || PG_UNAVAILABLE.test(code))) return true;
  if (name === 'MaxRetriesPerRequestError') return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message)))
    return true;
  if (Array.isArray(errors) && errors.some((inner) => isDependencyUnavailable(inner, depth + 1))) return true;
  return isDependencyUnavailable(cause, depth + 1);
}

/** Options of {@link DependencyHealth}. */
export interface DependencyHealthOptions {
  /** A probe per configured dependency: true when it answers. */
  probes: Partial<Record<DependencyKey, () => Promise<boolean>>>;
  logger: Logger;
  /** Period of the background probes (ms, default 1000): recovery is seen within it. */
  intervalMs?: number;
  /** Longest wait for one probe (ms, default 1000); a slower answer counts as down. */
  probeTimeoutMs?: number;
}

/**
 * Whether each dependency answers, from a probe every second and from the errors requests meet: one warn line when
 * a dependency goes down, one when it is back (not one per failed request), `/readyz` red while any is down, and
 * the `dependency_up` gauge. A request that fails on a connection error calls {@link suspect}, which probes at
 * once instead of waiting for the next tick.
 */
export class DependencyHealth {
  private readonly state = new Map<DependencyKey, boolean>();
  private timer: NodeJS.Timeout | undefined;
  private probing: Promise<void> | undefined;
  private readonly intervalMs: number;
  private readonly probeTimeoutMs: number;

  constructor(private readonly options: DependencyHealthOptions) {
    this.intervalMs = options.intervalMs ?? 1000;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 1000;
    for (const key of Object.keys(options.probes) as DependencyKey[]) this.state.set(key, true);
  }

  /** Starts the background probes (unref'd: they never keep the process alive). */
  start(): this {
    this.timer ??= setInterval(() => void this.probe(), this.intervalMs);
    this.timer.unref();
    return this;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Each configured dependency and whether it answered last. */
  states(): [DependencyKey, boolean][] {
    return [...this.state];
  }

  /** True while every configured dependency answers. */
  allUp(): boolean {
    for (const up of this.state.values()) if (!up) return false;
    return true;
  }

  /** A request met a connection error: probe now (one probe at a time, however many requests failed). */
  suspect(): void {
    void this.probe();
  }

  /** Probes every dependency once and records transitions; concurrent callers share one round. */
  probe(): Promise<void> {
    this.probing ??= this.probeAll().finally(() => {
      this.probing = undefined;
    });
    return this.probing;
  }

  private async probeAll(): Promise<void> {
    const entries = Object.entries(this.options.probes) as [DependencyKey, () => Promise<boolean>][];
    await Promise.all(
      entries.map(async ([key, probe]) => this.record(key, await withTimeout(probe, this.probeTimeoutMs))),
    );
  }

  private record(key: DependencyKey, up: boolean): void {
    const was = this.state.get(key);
    if (was === up) return;
    this.state.set(key, up);
    if (up) this.options.logger.warn({ dependency: key }, 'dependency recovered');
    else this.options.logger.warn({ dependency: key }, 'dependency down');
  }
}

async function withTimeout(probe: () => Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      probe().catch(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
