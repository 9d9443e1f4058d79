/**
 * Routine writes (ADR 0066): on an SQLite file, a sign-in's own writes — its new session, the session's index row,
 * its audit events — commit at `synchronous = NORMAL` (no fsync on the main thread), and everything else still at
 * FULL: a sign-out's end of the session and removal of its row wait for the disk. Observed on the real connection:
 * each statement's run is watched and the connection's level read just before it.
 */
import SQLite from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { browser, startTestGateway, TEST_PASSWORD, type TestGateway } from '../testing/test-gateway.js';
import { routineWrite } from './database.js';

const NORMAL = 1;
const FULL = 2;

/** Each write statement that ran (not the level switches themselves) with the level it ran at. */
function watchWrites() {
  const probe = new SQLite(':memory:');
  const statementProto = Object.getPrototypeOf(probe.prepare('select 1')) as {
    run: (this: SQLite.Statement, ...params: unknown[]) => SQLite.RunResult;
  };
  probe.close();
  const original = statementProto.run;
  const writes: { sql: string; level: number }[] = [];
  statementProto.run = function (this: SQLite.Statement, ...params: unknown[]) {
    if (!/^\s*pragma/i.test(this.source)) {
      const level = this.database.pragma('synchronous', { simple: true }) as number;
      writes.push({ sql: this.source.replace(/\s+/g, ' '), level });
    }
    return original.apply(this, params);
  };
  return {
    writes,
    /** The writes to `table` (insert, update or delete) since `from`. */
    to: (table: string, from = 0) =>
      writes
        .slice(from)
        .filter((w) => new RegExp(`^(insert into|update|delete from) "${table}"`).test(w.sql)),
    restore: () => {
      statementProto.run = original;
    },
  };
}

describe('routine writes on an SQLite file (ADR 0066)', () => {
  let gw: TestGateway;
  let watch: ReturnType<typeof watchWrites>;
  beforeAll(async () => {
    gw = await startTestGateway({ backend: 'sqlite', sqlSessions: true });
    watch = watchWrites();
  });
  afterAll(async () => {
    watch.restore();
    await gw.close();
  });
  afterEach(() => {
    watch.writes.length = 0;
  });

  it("commits a sign-in's session, its index row and its audit events without waiting for the disk", async () => {
    const user = await gw.addUser();
    const b = await browser(gw.app);
    const from = watch.writes.length;
    const res = await b.signIn(user.username, TEST_PASSWORD);
    expect(res.status).toBe(209);
    const sessions = watch.to('sessions', from);
    const index = watch.to('account_sessions', from);
    const audit = watch.to('audit_events', from);
    expect(sessions.length).toBeGreaterThan(0);
    expect(index.length).toBeGreaterThan(0);
    expect(audit.length).toBeGreaterThan(0);
    for (const write of [...sessions, ...index, ...audit]) expect(write).toMatchObject({ level: NORMAL });
    // Back to FULL for whatever comes next.
    const level = await gw.store.database.db.executeQuery(CompiledQuery.raw('pragma synchronous'));
    expect(level.rows).toEqual([{ synchronous: FULL }]);
  });

  it('waits for the disk when a sign-out ends the session and drops its row', async () => {
    const user = await gw.addUser();
    const b = await browser(gw.app);
    expect((await b.signIn(user.username, TEST_PASSWORD)).status).toBe(209);
    const from = watch.writes.length;
    expect((await b.post('/api/Account/Logout', {})).status).toBe(209);
    const ended = watch.to('sessions', from).filter((w) => !w.sql.includes('routine write'));
    const dropped = watch.to('account_sessions', from).filter((w) => w.sql.startsWith('delete'));
    expect(ended.length).toBeGreaterThan(0);
    expect(dropped.length).toBeGreaterThan(0);
    for (const write of [...ended, ...dropped]) expect(write).toMatchObject({ level: FULL });
  });

  it('runs a routine write inside a transaction as the transaction commits (SQLite refuses a level change there)', async () => {
    const { db } = gw.store.database;
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('audit_events')
        .values({
          at: Date.now(),
          kind: 'test.routine-in-transaction',
          user_id: null,
          ip: null,
          data: '{}',
          outcome: 'success',
          user_agent: null,
          request_id: null,
          partner_id: null,
          actor: null,
          subject: null,
          customer_id: null,
        })
        .modifyEnd(routineWrite)
        .execute();
    });
    const stored = await db
      .selectFrom('audit_events')
      .select('kind')
      .where('kind', '=', 'test.routine-in-transaction')
      .execute();
    expect(stored).toEqual([{ kind: 'test.routine-in-transaction' }]);
  });
});
