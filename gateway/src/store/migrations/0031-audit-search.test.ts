/**
 * Migration 0031 (issue 52, ADR 0063) on SQLite and (when TEST_DATABASE_URL is set) PostgreSQL: the events stored
 * before it get their console actor, subject and customer as columns (text only), the others stay null.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../migrator.js';
import { openTestDatabase, SQL_ENGINES } from '../../testing/backends.js';
import { backfillAuditSearch } from './0031-audit-search.js';

for (const { sql: kind, skip } of SQL_ENGINES) {
  describe.skipIf(skip)(`migration 0031 (${kind})${skip ? ` — skipped: ${skip}` : ''}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('copies the console shape of earlier events into the searchable columns', async () => {
      const database = await openTestDatabase(kind, 'm31', cleanups);
      await migrateToLatest(database);
      const db = database.db as unknown as Kysely<unknown>;
      // As events were written before the columns existed: data only.
      const rows = [
        {
          kind: 'console.grant.added',
          data: { actor: 'ann', subject: 'bob', customerId: 'acme', reason: null },
        },
        { kind: 'sign-in.succeeded', data: { method: 'password' } },
        { kind: 'odd', data: { actor: 42, subject: ['x'], note: '"actor"' } },
        { kind: 'long', data: { actor: 'a'.repeat(600), subject: 'ß – ü' } },
      ];
      for (const [i, row] of rows.entries())
        await sql`insert into audit_events (at, kind, user_id, ip, data) values (${i}, ${row.kind}, null, null, ${JSON.stringify(row.data)})`.execute(
          db,
        );
      await backfillAuditSearch(db, database.dialect);
      const found = await sql<{
        kind: string;
        actor: string | null;
        subject: string | null;
        customer_id: string | null;
      }>`
        select kind, actor, subject, customer_id from audit_events order by at`.execute(db);
      expect(found.rows).toEqual([
        { kind: 'console.grant.added', actor: 'ann', subject: 'bob', customer_id: 'acme' },
        { kind: 'sign-in.succeeded', actor: null, subject: null, customer_id: null },
        { kind: 'odd', actor: null, subject: null, customer_id: null },
        { kind: 'long', actor: 'a'.repeat(512), subject: 'ß – ü', customer_id: null },
      ]);
    });
  });
}
