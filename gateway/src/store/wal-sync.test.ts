import { fdatasync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { sql, type Generated, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { flushedOnce, openDatabase, Prepared, type StoreDatabase } from './database.js';

const diskFlush = promisify(fdatasync);

/** The WAL's flushes as the store asks for them: counted, held until let go, then done by the disk for real. */
function heldFlushes() {
  const started: number[] = [];
  let release: () => void = () => {};
  let held = Promise.resolve();
  let failNext: Error | undefined;
  return {
    started,
    hold() {
      held = new Promise((resolve) => (release = resolve));
    },
    letGo: () => release(),
    failNextWith(error: Error) {
      failNext = error;
    },
    flush: async (fd: number) => {
      started.push(fd);
      await held;
      if (failNext) {
        const error = failNext;
        failNext = undefined;
        throw error;
      }
      await diskFlush(fd);
    },
  };
}

/** Whether the promise settled after the event loop went round a few times (a flush of the disk's would have). */
async function settledSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe('group commit (ADR 0067): a write answers once it is on disk, its flush beside the event loop', () => {
  let dir: string;
  let database: StoreDatabase | undefined;

  afterEach(async () => {
    await database?.close();
    database = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(flushes?: ReturnType<typeof heldFlushes>) {
    dir = mkdtempSync(path.join(tmpdir(), 'wal-sync-'));
    const file = path.join(dir, 'identity.db');
    database = openDatabase({
      sqliteFile: file,
      groupCommit: true,
      ...(flushes ? { flushWal: flushes.flush } : {}),
    });
    await sql`create table notes (id integer primary key, body text not null)`.execute(database.db);
    const db = database.db as unknown as Kysely<{ notes: { id: Generated<number>; body: string } }>;
    const insert = new Prepared(database.db, undefined, (param) =>
      db.insertInto('notes').values({ body: param('body') }),
    );
    const count = () =>
      new SQLite(file, { readonly: true }).prepare('select count(*) as n from notes').get() as { n: number };
    return { file, db, insert, count };
  }

  it('the server’s connection commits without flushing (NORMAL); every other one flushes each commit (FULL), reopened too', async () => {
    const { db } = await open();
    expect((await sql<{ synchronous: number }>`pragma synchronous`.execute(db)).rows[0]!.synchronous).toBe(1);
    await database!.close();
    database = openDatabase({ sqliteFile: path.join(dir, 'identity.db') });
    expect(
      (await sql<{ synchronous: number }>`pragma synchronous`.execute(database.db)).rows[0]!.synchronous,
    ).toBe(2);
  });

  it.each([
    [
      'a compiled write (a sign-in’s)',
      (t: Awaited<ReturnType<typeof open>>) => t.insert.run({ body: 'compiled' }),
    ],
    [
      'a statement through Kysely',
      (t: Awaited<ReturnType<typeof open>>) => t.db.insertInto('notes').values({ body: 'kysely' }).execute(),
    ],
    [
      'a transaction',
      (t: Awaited<ReturnType<typeof open>>) =>
        t.db.transaction().execute(async (trx) => {
          await trx.insertInto('notes').values({ body: 'one' }).execute();
          await trx.insertInto('notes').values({ body: 'two' }).execute();
        }),
    ],
  ])('%s answers only after a flush of the WAL that began after its commit', async (_, write) => {
    const flushes = heldFlushes();
    const t = await open(flushes);
    flushes.hold();
    const before = flushes.started.length;
    const written = write(t);
    // Committed (another connection reads it), flushing, and not answered while the flush lasts.
    expect(await settledSoon(written)).toBe(false);
    expect(t.count().n).toBeGreaterThan(0);
    expect(flushes.started.length).toBe(before + 1);
    flushes.letGo();
    await written;
  });

  it('reads wait for no flush; the connection is free for them while a write’s flush runs', async () => {
    const flushes = heldFlushes();
    const t = await open(flushes);
    flushes.hold();
    const written = t.db.insertInto('notes').values({ body: 'waiting' }).execute();
    expect(await settledSoon(written)).toBe(false);
    const read = t.db.selectFrom('notes').select('body').execute();
    expect(await settledSoon(read)).toBe(true);
    expect(await read).toEqual([{ body: 'waiting' }]);
    flushes.letGo();
    await written;
  });

  it('commits that wait together share a flush: twenty writes in one turn, two flushes', async () => {
    const flushes = heldFlushes();
    const t = await open(flushes);
    flushes.hold();
    const before = flushes.started.length;
    // The first write's flush starts alone; the nineteen that commit while it runs share the next one.
    const writes = Promise.all(Array.from({ length: 20 }, (_, i) => t.insert.run({ body: `note ${i}` })));
    expect(await settledSoon(writes)).toBe(false);
    flushes.letGo();
    expect(await writes).toEqual(Array(20).fill(1));
    expect(flushes.started.length - before).toBe(2);
    expect(t.count().n).toBe(20);
  });

  it('flushedOnce: its writes go on without waiting, and it answers after one flush that covers them all', async () => {
    const flushes = heldFlushes();
    const t = await open(flushes);
    flushes.hold();
    const before = flushes.started.length;
    const steps: string[] = [];
    const work = flushedOnce(database!.db, async () => {
      await t.insert.run({ body: 'session' });
      steps.push('compiled');
      await t.db.insertInto('notes').values({ body: 'index' }).execute();
      steps.push('kysely');
      await t.db.transaction().execute((trx) => trx.insertInto('notes').values({ body: 'audit' }).execute());
      steps.push('transaction');
      return 'signed in';
    });
    // Every write went through while the one flush is held; the answer waits for it.
    expect(await settledSoon(work)).toBe(false);
    expect(steps).toEqual(['compiled', 'kysely', 'transaction']);
    expect(flushes.started.length - before).toBe(1);
    flushes.letGo();
    expect(await work).toBe('signed in');
    expect(t.count().n).toBe(3);
  });

  it('flushedOnce: a write it started that runs after it answered waits for a flush of its own', async () => {
    const flushes = heldFlushes();
    const t = await open(flushes);
    let later: Promise<number> | undefined;
    // As a mail queued for after the answer: started inside, run on a later turn.
    await flushedOnce(database!.db, () => {
      later = new Promise((resolve) => setTimeout(resolve, 20)).then(() => t.insert.run({ body: 'mail' }));
      return Promise.resolve();
    });
    flushes.hold();
    // It committed (another connection reads it) and waits for its flush.
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(t.count().n).toBe(1);
    expect(await settledSoon(later!)).toBe(false);
    flushes.letGo();
    await expect(later).resolves.toBe(1);
  });

  it('a flush that fails fails the writes that waited for it; the next write flushes again', async () => {
    const flushes = heldFlushes();
    const t = await open(flushes);
    flushes.failNextWith(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    await expect(t.insert.run({ body: 'lost?' })).rejects.toThrow('EIO');
    await expect(t.insert.run({ body: 'kept' })).resolves.toBe(1);
  });
});
