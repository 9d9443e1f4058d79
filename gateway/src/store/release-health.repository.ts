import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

const MINUTE_MS = 60_000;

/** The minute (ms) a time falls in: what the count tables are keyed by. */
export function minuteOf(at: number): number {
  return Math.floor(at / MINUTE_MS) * MINUTE_MS;
}

/** What one replica counted of a remote version in one minute (ADR 0059). */
export interface HealthCount {
  /** ms, a whole minute ({@link minuteOf}). */
  minute: number;
  remote: string;
  version: string;
  /** `pageLoad` or `loadFailure` (release_health_counts), or a client error report's kind (client_error_counts). */
  kind: string;
  count: number;
}

/** One version's counts over a period, over every replica. */
export interface VersionCounts {
  version: string;
  pageLoads: number;
  loadFailures: number;
  clientErrors: number;
}

// Rows per INSERT: a flush of a busy replica holds a few hundred at most.
const ROWS_PER_INSERT = 100;

/**
 * Health per remote version in the store every replica shares (migration 0028, ADR 0059): page loads and remote-load
 * failures in `release_health_counts`, client error reports in `client_error_counts` (what `admin errors` reads).
 * Replicas buffer their counts and add them here every few seconds ({@link HealthCounter}), one statement per flush.
 */
export class ReleaseHealthRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds counts of page loads and load failures (`release_health_counts`). */
  async addHealth(counts: readonly HealthCount[]): Promise<void> {
    await this.add('release_health_counts', counts);
  }

  /** Adds counts of client error reports (`client_error_counts`). */
  async addClientErrors(counts: readonly HealthCount[]): Promise<void> {
    await this.add('client_error_counts', counts);
  }

  private async add(
    table: 'release_health_counts' | 'client_error_counts',
    counts: readonly HealthCount[],
  ): Promise<void> {
    for (let i = 0; i < counts.length; i += ROWS_PER_INSERT) {
      await this.db
        .insertInto(table)
        .values(counts.slice(i, i + ROWS_PER_INSERT).map((c) => ({ ...c })))
        .onConflict((oc) =>
          oc
            .columns(['minute', 'remote', 'version', 'kind'])
            .doUpdateSet((eb) => ({ count: eb(`${table}.count`, '+', eb.ref('excluded.count')) })),
        )
        .execute();
    }
  }

  /**
   * Each version's counts of `remote` from the minute of `since` (ms) on: page loads, load failures (the shell's
   * `remote-load` reports are load failures, not client errors) and the other client error reports.
   */
  countsSince(remote: string, since: number): Promise<VersionCounts[]> {
    return countsSince(this.db, remote, since);
  }

  /** Deletes health counts older than `before` (ms); answers how many rows went. */
  async purgeBefore(before: number): Promise<number> {
    const result = await this.db
      .deleteFrom('release_health_counts')
      .where('minute', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/**
 * Each version's counts of `remote` from the minute of `since` (ms) on, in every replica's store rows: page loads,
 * load failures (the shell's `remote-load` reports are load failures, not client errors) and the other client error
 * reports. Takes the store or a transaction (a canary's start reads its baseline in the transaction that starts it).
 */
export async function countsSince(
  db: Kysely<Database>,
  remote: string,
  since: number,
): Promise<VersionCounts[]> {
  const from = minuteOf(since);
  const health = await db
    .selectFrom('release_health_counts')
    .select(['version', 'kind', (eb) => eb.fn.sum<number | string>('count').as('total')])
    .where('remote', '=', remote)
    .where('minute', '>=', from)
    .groupBy(['version', 'kind'])
    .execute();
  const errors = await db
    .selectFrom('client_error_counts')
    .select(['version', (eb) => eb.fn.sum<number | string>('count').as('total')])
    .where('remote', '=', remote)
    .where('minute', '>=', from)
    .where('kind', '!=', 'remote-load')
    .groupBy(['version'])
    .execute();
  const byVersion = new Map<string, VersionCounts>();
  const of = (version: string) => {
    let counts = byVersion.get(version);
    if (!counts) {
      counts = { version, pageLoads: 0, loadFailures: 0, clientErrors: 0 };
      byVersion.set(version, counts);
    }
    return counts;
  };
  for (const row of health) {
    if (row.kind === 'pageLoad') of(row.version).pageLoads += Number(row.total);
    else if (row.kind === 'loadFailure') of(row.version).loadFailures += Number(row.total);
  }
  for (const row of errors) of(row.version).clientErrors += Number(row.total);
  return [...byVersion.values()];
}

/**
 * The counts less a baseline taken earlier in the same period (a canary's start minute as it stood when the canary
 * started), per version and never below 0: what was counted after the baseline.
 */
export function countsAfter(
  counts: readonly VersionCounts[],
  baseline: readonly VersionCounts[],
): VersionCounts[] {
  return counts.map((c) => {
    const before = baseline.find((b) => b.version === c.version);
    if (!before) return c;
    return {
      version: c.version,
      pageLoads: Math.max(0, c.pageLoads - before.pageLoads),
      loadFailures: Math.max(0, c.loadFailures - before.loadFailures),
      clientErrors: Math.max(0, c.clientErrors - before.clientErrors),
    };
  });
}
