/**
 * Migration 0034 (issue 54) on SQLite and (when TEST_DATABASE_URL is set) PostgreSQL: the console's search indexes
 * (actor, subject, customer) hold only the events that have a value there, and the console's search still finds
 * its events through them.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type StoreDatabase } from '../database.js';
import { migrateToLatest } from '../migrator.js';
import { openTestDatabase, SQL_ENGINES } from '../../testing/backends.js';
import { AuditRepository } from '../audit.repository.js';

const INDEXES = {
  audit_events_actor: 'actor',
  audit_events_subject: 'subject',
  audit_events_customer: 'customer_id',
};

for (const { sql: kind, skip } of SQL_ENGINES) {
  describe.skipIf(skip)(`migration 0034 (${kind})${skip ? ` — skipped: ${skip}` : ''}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    async function migrated(): Promise<StoreDatabase> {
      const database = await openTestDatabase(kind, 'm34', cleanups);
      await migrateToLatest(database);
      return database;
    }

    it('indexes the search columns only where they hold a value', async () => {
      const database = await migrated();
      const db = database.db as unknown as Kysely<unknown>;
      for (const [index, column] of Object.entries(INDEXES)) {
        const definition =
          kind === 'postgres'
            ? (
                await sql<{
                  d: string;
                }>`select indexdef as d from pg_indexes where indexname = ${index} and schemaname = current_schema()`.execute(
                  db,
                )
              ).rows
            : (await sql<{ d: string }>`select sql as d from sqlite_master where name = ${index}`.execute(db))
                .rows;
        expect(definition).toHaveLength(1);
        expect(definition[0]!.d.replace(/["()]/g, '').toLowerCase()).toContain(`where ${column} is not null`);
      }
    });

    it("finds the console's events by actor, subject and customer among events without them", async () => {
      const database = await migrated();
      const audit = new AuditRepository(database.db);
      for (let i = 0; i < 20; i++)
        await audit.record(
          { at: 1000 + i, kind: 'sign-in.password', userId: 'u1', ip: null, data: {} },
          { at: 1000 + i, kind: 'sign-in.completed', userId: 'u1', ip: null, data: { amr: ['pwd'] } },
        );
      await audit.record({
        at: 2000,
        kind: 'console.grant.added',
        userId: null,
        ip: null,
        data: { actor: 'ann', subject: 'bob', customerId: 'acme' },
      });
      await audit.record({
        at: 2001,
        kind: 'console.user.disabled',
        userId: null,
        ip: null,
        data: { actor: 'ann', subject: 'cy' },
      });
      const kinds = (rows: { kind: string; subject: string | null }[]) =>
        rows.map((r) => `${r.kind} ${r.subject}`);
      expect(kinds(await audit.search({ actor: 'ann', limit: 10 }))).toEqual([
        'console.user.disabled cy',
        'console.grant.added bob',
      ]);
      expect(kinds(await audit.search({ subject: 'bob', limit: 10 }))).toEqual(['console.grant.added bob']);
      expect(kinds(await audit.search({ customerId: 'acme', limit: 10 }))).toEqual([
        'console.grant.added bob',
      ]);
      expect(await audit.search({ kind: 'sign-in', limit: 100 })).toHaveLength(40);
      // The search's own statement, as each engine plans it: through the partial index, not a scan of every event.
      const query = sql`select * from audit_events where actor = ${'ann'} order by at desc, id desc limit 10`;
      const plan =
        kind === 'sqlite'
          ? (await sql<{ detail: string }>`explain query plan ${query}`.execute(database.db)).rows.map(
              (r) => r.detail,
            )
          : await database.db.connection().execute(async (connection) => {
              // A table this small is read whole unless scans are made dearer than any index.
              await sql`set enable_seqscan = off`.execute(connection);
              const rows = (await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(connection)).rows;
              await sql`set enable_seqscan = on`.execute(connection);
              return rows.map((r) => r['QUERY PLAN']);
            });
      expect(plan.join(' ')).toContain('audit_events_actor');
    });
  });
}
