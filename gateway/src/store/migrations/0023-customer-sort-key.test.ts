/**
 * Migration 0023 on a database that already has customers and memberships: customers and memberships get their
 * natural-order key, so such a user's list reads "Branch 2" before "Branch 10" straight after the upgrade, on SQLite
 * and (when TEST_DATABASE_URL is set) PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../migrator.js';
import { createStore } from '../store.js';
import { openTestDatabase, SQL_ENGINES } from '../../testing/backends.js';
import * as initial from './0001-initial.js';
import * as outboxHtml from './0002-outbox-html.js';
import * as kv from './0003-kv.js';
import * as customerSearch from './0005-customer-search.js';
import * as passwordPolicies from './0006-password-policies.js';
import * as membershipSearchKey from './0009-membership-search-key.js';

for (const { sql: kind, skip } of SQL_ENGINES) {
  describe.skipIf(skip)(`migration 0023 (${kind})${skip ? ` — skipped: ${skip}` : ''}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('fills the sort key of customers and memberships made before it, and the list is in natural order', async () => {
      const database = await openTestDatabase(kind, 'm23', cleanups);
      // A schema from before 0023 (its customers and memberships tables as 0009 left them).
      const before: Record<string, Migration> = {
        '0001-initial': { up: (db) => initial.up(db, database.dialect) },
        '0002-outbox-html': { up: (db) => outboxHtml.up(db, database.dialect) },
        '0003-kv': { up: (db) => kv.up(db) },
        '0005-customer-search': { up: (db) => customerSearch.up(db) },
        '0006-password-policies': { up: (db) => passwordPolicies.up(db) },
        '0009-membership-search-key': { up: (db) => membershipSearchKey.up(db) },
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
      await sql`insert into customers (id, name, search_key, created_at) values ('c10', 'Branch 10', 'branch 10', 0), ('c2', 'Branch 2', 'branch 2', 0), ('c3', 'Élan 3', 'elan 3', 0)`.execute(
        db,
      );
      await sql`insert into memberships (user_id, customer_id, roles, created_at, search_key) values ('u1', 'c10', '["MANAGER"]', 0, 'branch 10'), ('u1', 'c2', '["MANAGER"]', 0, 'branch 2'), ('u1', 'c3', '["MANAGER"]', 0, 'elan 3')`.execute(
        db,
      );

      await migrateToLatest(database);
      const store = createStore(database, randomBytes(32));
      const all = await store.customers.searchCustomersOf('u1', { offset: 0, limit: 5 });
      expect(all.customers.map((c) => c.name)).toEqual(['Branch 2', 'Branch 10', 'Élan 3']);
      const second = await store.customers.searchCustomersOf('u1', { filter: 'BRANCH', offset: 1, limit: 5 });
      expect(second).toMatchObject({ total: 2, customers: [{ id: 'c10', name: 'Branch 10' }] });
      // A membership added after the upgrade takes its customer's key too.
      await store.customers.create({ id: 'c1', partnerId: null, name: 'Branch 1' });
      await store.customers.addMembership({ userId: 'u1', customerId: 'c1', roles: ['MANAGER'] });
      const after = await store.customers.searchCustomersOf('u1', { offset: 0, limit: 5 });
      expect(after.customers.map((c) => c.name)).toEqual(['Branch 1', 'Branch 2', 'Branch 10', 'Élan 3']);
    });
  });
}
