import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestBackends, type TestBackends } from '../../testing/backends.js';
import { ManualClock } from '../clock.js';
import { sha256 } from '../crypto/tokens.js';
import { MemorySessionStore } from './memory-session.store.js';
import { RedisSessionStore } from './redis-session.store.js';
import { REMEMBER_ME_MAX_MS, SessionManager, type Session } from './session-manager.js';
import type { SessionStore } from './session-store.js';
import { SqlSessionStore } from './sql-session.store.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const TIMEOUTS = { idleMs: 30 * MINUTE, absoluteMs: 12 * HOUR };

type StoreKind = 'memory' | 'sqlite' | 'sqlite, committed reader' | 'postgres' | 'redis';

const STORES: { kind: StoreKind; skip: string | false }[] = [
  { kind: 'memory', skip: false },
  { kind: 'sqlite', skip: false },
  // How the server reads an SQLite file's sessions (runtime.ts): the every-request read off Kysely's driver.
  { kind: 'sqlite, committed reader', skip: false },
  { kind: 'postgres', skip: process.env.TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set' },
  { kind: 'redis', skip: process.env.TEST_REDIS_URL ? false : 'TEST_REDIS_URL is not set' },
];

for (const { kind, skip } of STORES) {
  describe.skipIf(skip)(`session manager over the ${kind} store${skip ? ` — skipped: ${skip}` : ''}`, () => {
    let backends: TestBackends | undefined;
    let clock: ManualClock;
    let store: SessionStore;
    const now = () => clock.now();
    /** A manager with these timeouts over the store under test, on the manual clock. */
    const manager = (timeouts: Partial<ConstructorParameters<typeof SessionManager>[1]> = {}) =>
      new SessionManager(store, { ...TIMEOUTS, ...timeouts }, now);
    /** Requests every 20 minutes for `ms`: never idle; the session must stay active throughout. */
    const keepActive = async (sessions: SessionManager, session: Session, ms: number) => {
      for (let elapsed = 0; elapsed < ms; elapsed += 20 * MINUTE) {
        clock.advance(Math.min(20 * MINUTE, ms - elapsed));
        expect((await sessions.load(session.id)).kind).toBe('active');
      }
    };
    /** What the store itself still holds for a cookie's id. */
    const stored = (session: Session) => store.get(sha256(session.id));

    beforeAll(async () => {
      if (skip) return;
      if (kind === 'postgres') backends = await openTestBackends({ sql: kind });
      if (kind.startsWith('sqlite')) backends = await openTestBackends({ sql: 'sqlite' });
      if (kind === 'sqlite, committed reader') expect(backends?.store.database.committedReader).toBeDefined();
      if (kind === 'redis') backends = await openTestBackends({ sql: 'sqlite', redis: true });
    });
    afterAll(async () => {
      await backends?.close();
    });
    beforeEach(() => {
      clock = new ManualClock(Date.now());
      store =
        kind === 'memory'
          ? new MemorySessionStore(now)
          : kind === 'redis'
            ? new RedisSessionStore(backends!.redis!, now, `${backends!.keyPrefix}session:`)
            : new SqlSessionStore(
                backends!.store.database.db,
                now,
                kind === 'sqlite, committed reader' ? backends!.store.database.committedReader : undefined,
              );
    });

    it('S25 a new session has a fresh unguessable id and loads with its data', async () => {
      const sessions = manager();
      const a = await sessions.create({ username: 'ann' });
      const b = await sessions.create({ username: 'ann' });
      expect(a.id).not.toBe(b.id);
      // 32 random bytes, base64url: 256 bits.
      expect(a.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const loaded = await sessions.load(a.id);
      expect(loaded).toMatchObject({
        kind: 'active',
        session: { id: a.id, record: { data: { username: 'ann' } } },
      });
    });

    it('a cookie value that cannot be an id, or an unknown id, is no session', async () => {
      const sessions = manager();
      expect(await sessions.load(undefined)).toEqual({ kind: 'none' });
      expect(await sessions.load('short')).toEqual({ kind: 'none' });
      expect(await sessions.load('x'.repeat(101))).toEqual({ kind: 'none' });
      expect(await sessions.load('A'.repeat(43))).toEqual({ kind: 'expired' });
    });

    it('S28 ends a session after the idle timeout without requests, and not before', async () => {
      const sessions = manager();
      const session = await sessions.create({ username: 'ann' });
      clock.advance(30 * MINUTE - 1);
      expect((await sessions.load(session.id)).kind).toBe('active');
      // That request counted as activity: the idle time starts again from it.
      clock.advance(30 * MINUTE - 1);
      expect((await sessions.load(session.id)).kind).toBe('active');
      clock.advance(30 * MINUTE);
      expect(await sessions.load(session.id)).toEqual({ kind: 'expired' });
      expect(await stored(session)).toBeUndefined();
    });

    it('saving the session counts as activity', async () => {
      const sessions = manager();
      const session = await sessions.create();
      clock.advance(20 * MINUTE);
      session.record.data.username = 'ann';
      await sessions.save(session);
      clock.advance(20 * MINUTE);
      expect(await sessions.load(session.id)).toMatchObject({
        kind: 'active',
        session: { record: { data: { username: 'ann' } } },
      });
    });

    it('S28 ends a session at the absolute timeout however active it is', async () => {
      const sessions = manager();
      const session = await sessions.create({ username: 'ann' });
      await keepActive(sessions, session, 12 * HOUR - 20 * MINUTE);
      clock.advance(20 * MINUTE);
      expect(await sessions.load(session.id)).toEqual({ kind: 'expired' });
      expect(await stored(session)).toBeUndefined();
    });

    it('S24 regenerate issues a new id for the data and the old id is dead at once', async () => {
      const sessions = manager();
      const before = await sessions.create({ username: 'ann' });
      const after = await sessions.regenerate(before, { username: 'ann', loggedOut: undefined });
      expect(after.id).not.toBe(before.id);
      expect(await sessions.load(before.id)).toEqual({ kind: 'expired' });
      expect(await stored(before)).toBeUndefined();
      expect(await sessions.load(after.id)).toMatchObject({
        kind: 'active',
        session: { record: { data: { username: 'ann' } } },
      });
    });

    it('regenerate restarts the absolute timeout (a fresh sign-in) and keeps or switches remember-me', async () => {
      const sessions = manager();
      const first = await sessions.create();
      await keepActive(sessions, first, 11 * HOUR);
      const second = await sessions.regenerate(first, {});
      // 22 hours after the first sign-in, 11 after the second: only the second one's 12 hours count.
      await keepActive(sessions, second, 11 * HOUR);
      expect((await sessions.load(second.id)).kind).toBe('active');
      expect(second.record.persistent).toBe(false);
      const third = await sessions.regenerate(second, {}, true);
      expect(third.record.persistent).toBe(true);
      expect((await sessions.regenerate(third, {})).record.persistent).toBe(true);
    });

    it('S28 remember-me outlives the normal timeouts but never 30 days', async () => {
      const sessions = manager({ persistentIdleMs: 14 * DAY });
      const session = await sessions.create({ username: 'ann' }, true);
      clock.advance(13 * HOUR);
      expect((await sessions.load(session.id)).kind).toBe('active');
      // Used once a week: still there just before 30 days; gone at 30 days however recently it was used.
      const at = (ms: number) => clock.advance(session.record.createdAt + ms - clock.now());
      for (const day of [7, 14, 21, 28]) {
        at(day * DAY);
        expect((await sessions.load(session.id)).kind, `day ${day}`).toBe('active');
      }
      at(REMEMBER_ME_MAX_MS - 1);
      expect((await sessions.load(session.id)).kind).toBe('active');
      clock.advance(1);
      expect(await sessions.load(session.id)).toEqual({ kind: 'expired' });
    });

    it('S28 remember-me ends at 30 days even with a longer idle timeout configured', async () => {
      const sessions = manager({ persistentIdleMs: 90 * DAY });
      const session = await sessions.create({}, true);
      expect(sessions.expiresAt(session.record) - session.record.createdAt).toBe(REMEMBER_ME_MAX_MS);
      clock.advance(REMEMBER_ME_MAX_MS - 1);
      expect((await sessions.load(session.id)).kind).toBe('active');
      clock.advance(1);
      expect(await sessions.load(session.id)).toEqual({ kind: 'expired' });
    });

    it('remember-me without activity ends after its idle timeout', async () => {
      const sessions = manager({ persistentIdleMs: 14 * DAY });
      const session = await sessions.create({}, true);
      clock.advance(14 * DAY);
      expect(await sessions.load(session.id)).toEqual({ kind: 'expired' });
    });

    it('destroy ends the session: its id loads as expired and the store holds nothing', async () => {
      const sessions = manager();
      const session = await sessions.create({ username: 'ann' });
      const other = await sessions.create({ username: 'bob' });
      await sessions.destroy(session);
      expect(await sessions.load(session.id)).toEqual({ kind: 'expired' });
      expect(await stored(session)).toBeUndefined();
      expect((await sessions.load(other.id)).kind).toBe('active');
    });

    it('S27 a request still holding a destroyed session cannot write it back, whatever it saves', async () => {
      const sessions = manager();
      const session = await sessions.create({ username: 'ann' });
      // Another request loaded the same session before sign-out ended it.
      const loaded = await sessions.load(session.id);
      if (loaded.kind !== 'active') throw new Error('expected the session');
      const late = loaded.session;
      await sessions.destroy(session);
      late.record.data.account = { userId: 'u1', authTime: 1, amr: ['pwd'], securityStamp: 's' };
      expect(await sessions.save(late)).toBe(false);
      clock.advance(40_000);
      expect(await sessions.save(late)).toBe(false);
      expect(await sessions.load(session.id)).toEqual({ kind: 'expired' });
      expect(await stored(session)).toBeUndefined();
    });

    it('S27 a late write cannot bring back a session that regenerate or a timeout ended', async () => {
      const sessions = manager();
      const before = await sessions.create({ username: 'ann' });
      const copy = { id: before.id, record: structuredClone(before.record) };
      await sessions.regenerate(before, { username: 'ann' });
      expect(await sessions.save(copy)).toBe(false);
      expect(await sessions.load(before.id)).toEqual({ kind: 'expired' });

      const idle = await sessions.create({ username: 'bob' });
      const held = { id: idle.id, record: structuredClone(idle.record) };
      clock.advance(30 * MINUTE);
      expect(await sessions.load(idle.id)).toEqual({ kind: 'expired' });
      expect(await sessions.save(held)).toBe(false);
      expect(await sessions.load(idle.id)).toEqual({ kind: 'expired' });
    });

    it('saving a session whose record was never created inserts nothing (only create inserts)', async () => {
      const sessions = manager();
      const made = { id: 'B'.repeat(43), record: (await sessions.create()).record };
      expect(await sessions.save(made)).toBe(false);
      expect(await sessions.load(made.id)).toEqual({ kind: 'expired' });
      expect(await stored(made)).toBeUndefined();
    });

    it('an issued anonymous id stores nothing until saved, then behaves as a session that can end and time out', async () => {
      const sessions = manager();
      const id = 'C'.repeat(64);
      const anonymous = sessions.anonymous(id);
      expect(await stored(anonymous)).toBeUndefined();
      // Recognised but unstored: the empty anonymous session, never "expired".
      expect(await sessions.load(id, true)).toMatchObject({
        kind: 'active',
        session: { id, record: { data: {} } },
      });
      anonymous.record.data.username = 'ann';
      expect(await sessions.save(anonymous)).toBe(true);
      expect(await sessions.load(id, true)).toMatchObject({
        kind: 'active',
        session: { record: { data: { username: 'ann' } } },
      });

      // Sign-in moves the data to a new id; the issued one is expired from then on and cannot be saved again.
      const held = { ...anonymous, record: structuredClone(anonymous.record) };
      const next = await sessions.regenerate(anonymous, { username: 'ann' });
      expect(next.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await sessions.load(id, true)).toEqual({ kind: 'expired' });
      expect(await sessions.save(held)).toBe(false);
      expect(await sessions.save({ ...sessions.anonymous(id) })).toBe(false);
      expect(await sessions.load(id, true)).toEqual({ kind: 'expired' });

      // A regenerate straight from the unstored id (a sign-in from a fresh browser) ends it as well.
      const fresh = sessions.anonymous('D'.repeat(64));
      await sessions.regenerate(fresh, {});
      expect(await sessions.load(fresh.id, true)).toEqual({ kind: 'expired' });

      // A stored anonymous session that times out answers expired, not anonymous.
      const idle = sessions.anonymous('E'.repeat(64));
      idle.record.data.username = 'bob';
      await sessions.save(idle);
      clock.advance(30 * MINUTE);
      expect(await sessions.load(idle.id, true)).toEqual({ kind: 'expired' });
      clock.advance(5 * HOUR);
      expect(await sessions.load(idle.id, true)).toEqual({ kind: 'expired' });
    });

    it('two requests of one anonymous browser saving at once both land in one record', async () => {
      const sessions = manager();
      const id = 'F'.repeat(64);
      const one = sessions.anonymous(id);
      const two = sessions.anonymous(id);
      one.record.data.username = 'first';
      two.record.data.username = 'second';
      expect(await Promise.all([sessions.save(one), sessions.save(two)])).toEqual([true, true]);
      const loaded = await sessions.load(id, true);
      if (loaded.kind !== 'active') throw new Error('expected the session');
      expect(['first', 'second']).toContain(loaded.session.record.data.username);
    });

    it('ending an anonymous session that was never stored leaves no row behind', async () => {
      const sessions = manager();
      const anonymous = sessions.anonymous('G'.repeat(64));
      await sessions.destroy(anonymous);
      expect(await stored(anonymous)).toBeUndefined();
    });

    it('S24: replace ends the old key and stores the new record; a taken new key is left as it is', async () => {
      const record = (username: string) => ({
        data: { username },
        createdAt: now(),
        lastSeenAt: now(),
        absoluteExpiresAt: now() + HOUR,
        persistent: false,
      });
      const until = now() + HOUR;
      const replace = store.replace.bind(store);
      expect(await store.create('old-live', record('ann'), until)).toBe(true);
      expect(await replace('old-live', now() + 2 * HOUR, 'new-1', record('ann, signed in'), until)).toBe(
        true,
      );
      expect(await store.get('old-live')).toEqual({ kind: 'ended' });
      expect(await store.get('new-1')).toEqual({ kind: 'live', record: record('ann, signed in') });
      // An old key never stored (an issued id) gets its ended marker too.
      expect(await replace('old-unstored', now() + 2 * HOUR, 'new-2', record('bob'), until)).toBe(true);
      expect(await store.get('old-unstored')).toEqual({ kind: 'ended' });

      // The new key is taken: the record under it stays, and the old key has ended all the same (S24), as when the
      // old id's end and the new id's insert were two writes.
      expect(await store.create('old-2', record('cat'), until)).toBe(true);
      expect(await replace('old-2', now() + 2 * HOUR, 'new-1', record('cat, signed in'), until)).toBe(false);
      expect(await store.get('old-2')).toEqual({ kind: 'ended' });
      expect(await store.get('new-1')).toEqual({ kind: 'live', record: record('ann, signed in') });

      // The marker lasts until its time, then the key is free again (Redis expires keys on its own clock: the
      // marker's time to live is read there).
      if (kind === 'redis') {
        const ttl = await backends!.redis!.pttl(`${backends!.keyPrefix}session:old-live`);
        expect(ttl).toBeGreaterThan(2 * HOUR - MINUTE);
        expect(ttl).toBeLessThanOrEqual(2 * HOUR);
      } else {
        clock.advance(2 * HOUR + 1);
        expect(await store.get('old-live')).toBeUndefined();
      }
    });

    it('the store answers readiness checks', async () => {
      expect(await manager().ping()).toBe(true);
    });
  });
}

describe('the SQLite file’s committed reader (the session read of every request)', () => {
  let backends: TestBackends;
  beforeAll(async () => {
    backends = await openTestBackends({ sql: 'sqlite' });
  });
  afterAll(async () => {
    await backends.close();
  });

  it('sees a write the moment it commits, never while its transaction is open', async () => {
    const { db, committedReader } = backends.store.database;
    const store = new SqlSessionStore(db, Date.now, committedReader);
    const key = sha256('reader-test');
    const row = { data: '{}', created_at: 0, last_seen_at: 0, expires_at: Date.now() + HOUR };
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('sessions')
        .values({ id_hash: key, ...row })
        .execute();
      // Written on the main connection, not committed: the reader (another connection) must not see it.
      expect(await store.get(key)).toBeUndefined();
    });
    expect(await store.get(key)).toEqual({ kind: 'live', record: {} });
    await db.deleteFrom('sessions').where('id_hash', '=', key).execute();
    expect(await store.get(key)).toBeUndefined();
  });

  it('an in-memory database has none (a second connection would see another database)', async () => {
    const { openDatabase } = await import('../../store/database.js');
    const memory = openDatabase({ sqliteFile: ':memory:' });
    try {
      expect(memory.committedReader).toBeUndefined();
    } finally {
      await memory.close();
    }
  });
});
