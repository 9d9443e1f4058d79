/**
 * Migration 0009 on a database that already has customers and memberships: the memberships get their customer's
 * folded name, so such a user's search finds them from the new index, on SQLite and (when TEST_DATABASE_URL is set)
 * PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestDatabase, SQL_ENGINES } from '../../testing/backends.js';
import { migrateToLatest } from '../migrator.js';
import { createStore } from '../store.js';
import * as initial from './0001-initial.js';
import * as outboxHtml from './0002-outbox-html.js';
import * as kv from './0003-kv.js';
import * as customerSearch from './0005-customer-search.js';
import * as passwordPolicies from './0006-password-policies.js';

for (const { sql: kind, skip } of SQL_ENGINES) {
  describe.skipIf(skip)(`migration 0009 (${kind})${skip ? ` — skipped: ${skip}` : ''}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('fills the search key of memberships made before it, and the search finds them', async () => {
      const database = await openTestDatabase(kind, 'm9', cleanups);
      // The schema as it was before 0009.
      const before: Record<string, Migration> = {
        '0001-initial': { up: (db) => initial.up(db, database.dialect) },
        '0002-outbox-html': { up: (db) => outboxHtml.up(db, database.dialect) },
        '0003-kv': { up: (db) => kv.up(db) },
        '0005-customer-search': { up: (db) => customerSearch.up(db) },
        '0006-password-policies': { up: (db) => passwordPolicies.up(db) },
      };
      const migrator = new Migrator({
        db: database.db,
        provider: { getMigrations: () => Promise.resolve(before) },
        ...(database.schema ? { migrationTableSchema: database.schema } : {}),
      });
      const { error } = await migrator.migrateToLatest();
      expect(error).toBeUndefined();
      const db = database.db as unknown as Kysely<unknown>;
      await sql`insert into users (id, username, username_normalized, email, email_normalized, display_name, password_hash, roles, security_stamp, created_at, updated_at)
        values ('u1', 'ann', 'ANN', 'ann@example.test', 'ANN@EXAMPLE.TEST', 'Ann', 'x', '["EMPLOYEE"]', 's', 0, 0)`.execute(
        db,
      );
      await sql`insert into customers (id, name, search_key, created_at) values ('c1', 'Zürich AG', 'zurich ag', 0), ('c2', 'Berlin GmbH', 'berlin gmbh', 0)`.execute(
        db,
      );
      await sql`insert into memberships (user_id, customer_id, roles, created_at) values ('u1', 'c1', '["MANAGER"]', 0), ('u1', 'c2', '["MANAGER"]', 0)`.execute(
        db,
      );

      await migrateToLatest(database);
      const store = createStore(database, randomBytes(32));
      const found = await store.customers.searchCustomersOf('u1', { filter: 'ZURICH', offset: 0, limit: 5 });
      expect(found).toMatchObject({ total: 1, customers: [{ id: 'c1', name: 'Zürich AG' }] });
      const all = await store.customers.searchCustomersOf('u1', { offset: 0, limit: 5 });
      expect(all.customers.map((c) => c.id)).toEqual(['c2', 'c1']);
    });
  });
}
