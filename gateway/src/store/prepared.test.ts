/**
 * The sign-in's reads compiled once (PreparedRead): the user by login, whether a second factor is on, the count of
 * the user's customers. On an SQLite file they go through the committed reader, elsewhere through Kysely; each
 * backend must answer what the repository answered before, see a write the moment it commits and, on the reader,
 * never a write its transaction has not committed. The writes compiled once go straight to SQLite's connection
 * unless a transaction is open there, and are never part of one they did not start in.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKENDS, openTestBackends, type TestBackends } from '../testing/backends.js';
import { CustomerRepository } from './customer.repository.js';
import { openDatabase, Prepared } from './database.js';
import { migrateToLatest } from './migrator.js';
import { UserRepository } from './user.repository.js';

const kinds = [
  { name: 'sqlite file, committed reader', sql: 'sqlite', reader: true, skip: false },
  { name: 'sqlite file, through Kysely', sql: 'sqlite', reader: false, skip: false },
  {
    name: 'postgres',
    sql: 'postgres',
    reader: false,
    skip: BACKENDS.find((b) => b.name === 'postgres-redis')!.skip,
  },
] as const;

for (const kind of kinds) {
  describe.skipIf(kind.skip)(
    `the sign-in's prepared reads on ${kind.name}${kind.skip ? ` — skipped: ${kind.skip}` : ''}`,
    () => {
      let backends: TestBackends;
      let users: UserRepository;
      let customers: CustomerRepository;
      beforeEach(async () => {
        backends = await openTestBackends({ sql: kind.sql });
        const { db, committedReader } = backends.store.database;
        if (kind.sql === 'sqlite') expect(committedReader).toBeDefined();
        const reader = kind.reader ? committedReader : undefined;
        users = new UserRepository(db, Date.now, reader);
        customers = new CustomerRepository(db, Date.now, reader);
      });
      afterEach(async () => {
        await backends.close();
      });

      it('finds a user by username or e-mail in any case, and nobody for another login', async () => {
        const ann = await users.create({ username: 'Ann.Lee', email: 'Ann@Example.test', passwordHash: 'h' });
        expect(await users.findByLogin('  ann.LEE ')).toEqual(ann);
        expect(await users.findByLogin('ann@example.TEST')).toEqual(ann);
        expect(await users.findByLogin('ann')).toBeUndefined();
        // The same answer as the store's own repository (which the gateway builds) gives.
        expect(await backends.store.users.findByLogin('ann.lee')).toEqual(ann);
      });

      it('answers the account made first when a username is also another account’s e-mail', async () => {
        const first = await users.create({
          username: 'first',
          email: 'shared@example.test',
          passwordHash: 'h',
        });
        await new Promise((resolve) => setTimeout(resolve, 5));
        await users.create({ username: 'shared@example.test', passwordHash: 'h' });
        expect((await users.findByLogin('shared@example.test'))?.id).toBe(first.id);
      });

      it('sees whether a second factor is on, as it changes', async () => {
        const user = await users.create({ username: 'bo', passwordHash: 'h' });
        expect(await users.hasSecondFactor(user.id)).toBe(false);
        await backends.store.secondFactors.enablePin(user.id);
        expect(await users.hasSecondFactor(user.id)).toBe(true);
        await backends.store.secondFactors.disable(user.id);
        expect(await users.hasSecondFactor(user.id)).toBe(false);
      });

      it('counts the user’s customers', async () => {
        const user = await users.create({ username: 'cy', passwordHash: 'h' });
        const other = await users.create({ username: 'di', passwordHash: 'h' });
        expect(await customers.countCustomersOf(user.id)).toBe(0);
        for (const id of ['c1', 'c2', 'c3']) {
          await customers.create({ id, partnerId: null, name: `Customer ${id}` });
          await customers.addMembership({ userId: user.id, customerId: id, roles: ['EMPLOYEE'] });
        }
        await customers.addMembership({ userId: other.id, customerId: 'c1', roles: ['EMPLOYEE'] });
        expect(await customers.countCustomersOf(user.id)).toBe(3);
        expect(await customers.countCustomersOf(other.id)).toBe(1);
        await customers.removeMembership(user.id, 'c2');
        expect(await customers.countCustomersOf(user.id)).toBe(2);
      });

      it('writes audit events of one decision in one statement, in order, with the request context', async () => {
        const audit = backends.store.audit;
        audit.useContext(() => ({ ip: '192.0.2.7', userAgent: 'ua', requestId: 'req-1', partnerId: null }));
        const event = (kind: string, at: number) => ({ at, kind, userId: null, ip: null, data: { n: at } });
        await audit.record(event('one.a', 1));
        await audit.record(event('two.a', 2), event('two.b', 3));
        // More events than the statements compiled ahead (3) go through the query builder.
        await audit.record(
          event('four.a', 4),
          event('four.b', 5),
          event('four.c', 6),
          event('four.failed', 7),
        );
        const listed = await audit.list({ limit: 10 });
        expect(listed.map((e) => [e.kind, e.at, e.data, e.outcome, e.ip, e.requestId])).toEqual(
          [
            ['one.a', 1, { n: 1 }, 'success', '192.0.2.7', 'req-1'],
            ['two.a', 2, { n: 2 }, 'success', '192.0.2.7', 'req-1'],
            ['two.b', 3, { n: 3 }, 'success', '192.0.2.7', 'req-1'],
            ['four.a', 4, { n: 4 }, 'success', '192.0.2.7', 'req-1'],
            ['four.b', 5, { n: 5 }, 'success', '192.0.2.7', 'req-1'],
            ['four.c', 6, { n: 6 }, 'success', '192.0.2.7', 'req-1'],
            ['four.failed', 7, { n: 7 }, 'failure', '192.0.2.7', 'req-1'],
          ].reverse(),
        );
      });

      it('sees a user the moment its insert commits, and not while its transaction is open', async () => {
        const { db } = backends.store.database;
        const row = {
          id: 'u-trx',
          username: 'eve',
          username_normalized: 'eve',
          email: null,
          email_normalized: null,
          phone: null,
          display_name: 'Eve',
          password_hash: 'h',
          password_changed_at: null,
          password_expires_at: null,
          disabled: 0,
          roles: '[]',
          requires_two_factor: 0,
          partner_id: null,
          security_stamp: 's',
          created_at: 1,
          updated_at: 1,
        };
        await db.transaction().execute(async (trx) => {
          await trx.insertInto('users').values(row).execute();
          // Only the reader (its own connection) runs while the transaction holds the main one; Kysely's own path would
          // wait for the transaction (SQLite) or read another connection's view (PostgreSQL) and deadlock or pass.
          if (kind.reader) expect(await users.findByLogin('eve')).toBeUndefined();
        });
        expect((await users.findByLogin('EVE'))?.id).toBe('u-trx');
      });

      it('writes on its own: at once when nothing else holds the connection, never inside a transaction open meanwhile', async () => {
        const { db, committedReader } = backends.store.database;
        const row = { data: '{}', created_at: 1, last_seen_at: 1, expires_at: 10 };
        const mark = new Prepared(db, undefined, (param) =>
          db.insertInto('sessions').values({ id_hash: param('key'), ...row }),
        );
        const alone = mark.run({ key: 'alone' });
        // SQLite's main connection answers synchronously: the row is committed before the call returns.
        if (kind.sql === 'sqlite')
          expect(committedReader!.get('select id_hash from sessions where id_hash = ?', ['alone'])).toEqual({
            id_hash: 'alone',
          });
        expect(await alone).toBe(1);
        let beside: Promise<number> | undefined;
        await expect(
          db.transaction().execute(async (trx) => {
            await trx
              .insertInto('sessions')
              .values({ id_hash: 'in-trx', ...row })
              .execute();
            beside = mark.run({ key: 'beside' });
            await new Promise((resolve) => setTimeout(resolve, 20));
            throw new Error('rolled back');
          }),
        ).rejects.toThrow('rolled back');
        expect(await beside).toBe(1);
        const keys = await db.selectFrom('sessions').select('id_hash').orderBy('id_hash').execute();
        expect(keys.map((key) => key.id_hash)).toEqual(['alone', 'beside']);
      });
    },
  );
}

describe('Prepared', () => {
  it('binds each named value where the query was built with it and keeps the values the query wrote itself', async () => {
    const database = openDatabase({ sqliteFile: ':memory:' });
    try {
      await migrateToLatest(database);
      const { db } = database;
      const row = { created_at: 1, last_seen_at: 1, expires_at: 10 };
      await db
        .insertInto('sessions')
        .values([
          { id_hash: 'a', data: '{}', ...row },
          { id_hash: 'b', data: 'ended', ...row },
        ])
        .execute();
      const live = new Prepared(db, undefined, (param) =>
        db
          .selectFrom('sessions')
          .select(['id_hash', 'expires_at'])
          .where('id_hash', '=', param('key'))
          .where('data', '<>', 'ended'),
      );
      expect(await live.first({ key: 'a' })).toEqual({ id_hash: 'a', expires_at: 10 });
      expect(await live.first({ key: 'b' })).toBeUndefined();
      const extend = new Prepared(db, undefined, (param) =>
        db
          .updateTable('sessions')
          .set({ expires_at: param('until') })
          .where('id_hash', '=', param('key')),
      );
      expect(await extend.run({ key: 'a', until: 20 })).toBe(1);
      expect(await extend.run({ key: 'nobody', until: 20 })).toBe(0);
      expect(await live.first({ key: 'a' })).toEqual({ id_hash: 'a', expires_at: 20 });
      await expect(live.first({ key: undefined })).rejects.toThrow(/no value for key/);
    } finally {
      await database.close();
    }
  });
});
