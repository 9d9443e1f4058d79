import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

const MINUTE_MS = 60_000;

/** Reports of one remote version over a period. */
export interface ClientErrorTotal {
  remote: string;
  version: string;
  kind: string;
  count: number;
}

/** Per-minute counts of client-error reports by remote, version and kind (migration 0012). */
export class ClientErrorCountRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Counts one report at `at` (ms). */
  async add(at: number, remote: string, version: string, kind: string): Promise<void> {
    const minute = Math.floor(at / MINUTE_MS) * MINUTE_MS;
    await this.db
      .insertInto('client_error_counts')
      .values({ minute, remote, version, kind, count: 1 })
      .onConflict((oc) =>
        oc
          .columns(['minute', 'remote', 'version', 'kind'])
          .doUpdateSet((eb) => ({ count: eb('client_error_counts.count', '+', 1) })),
      )
      .execute();
  }

  /** Totals since `since` (ms), most reports first. */
  async totalsSince(since: number): Promise<ClientErrorTotal[]> {
    const rows = await this.db
      .selectFrom('client_error_counts')
      .select(['remote', 'version', 'kind', (eb) => eb.fn.sum<number | string>('count').as('total')])
      .where('minute', '>=', Math.floor(since / MINUTE_MS) * MINUTE_MS)
      .groupBy(['remote', 'version', 'kind'])
      .execute();
    return rows
      .map((r) => ({ remote: r.remote, version: r.version, kind: r.kind, count: Number(r.total) }))
      .sort(
        (a, b) => a.remote.localeCompare(b.remote) || b.count - a.count || a.version.localeCompare(b.version),
      );
  }

  /** Deletes counts older than `before` (ms); answers how many rows went. */
  async purgeBefore(before: number): Promise<number> {
    const result = await this.db
      .deleteFrom('client_error_counts')
      .where('minute', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
