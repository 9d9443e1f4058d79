import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type StoreDatabase } from './database.js';

describe('WAL checkpoints in the background (SQLite file)', () => {
  let dir: string;
  let database: StoreDatabase | undefined;

  afterEach(async () => {
    await database?.close();
    database = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function writeMegabytes(db: StoreDatabase, megabytes: number) {
    await sql`create table filler (body text not null)`.execute(db.db);
    // Separate commits, as requests make them: each may be the one that crosses the automatic threshold.
    for (let i = 0; i < megabytes * 16; i += 1) {
      await sql`insert into filler (body) values (${'x'.repeat(64 * 1024)})`.execute(db.db);
    }
  }

  it('commits never copy the WAL back (no disk flush in a request); the worker does, beside the event loop', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'wal-checkpointer-'));
    const file = path.join(dir, 'identity.db');
    // The worker's own tick is set far away: here only checkpointNow() may copy the WAL back.
    database = openDatabase({
      sqliteFile: file,
      checkpointInBackground: true,
      checkpointIntervalMs: 3_600_000,
    });
    const { checkpointer } = database;
    expect(checkpointer).toBeDefined();
    const before = statSync(file).size;
    // 6 MB is past SQLite's automatic checkpoint (1000 pages of 4 KiB): with it on, the file would have grown here.
    await writeMegabytes(database, 6);
    expect(statSync(file).size).toBe(before);
    await checkpointer!.checkpointNow();
    expect(statSync(file).size).toBeGreaterThan(before + 6 * 1024 * 1024);
  });

  it('is off unless asked for (CLIs and tests keep SQLite’s automatic checkpoints)', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'wal-checkpointer-'));
    const file = path.join(dir, 'identity.db');
    database = openDatabase({ sqliteFile: file });
    expect(database.checkpointer).toBeUndefined();
    const before = statSync(file).size;
    await writeMegabytes(database, 6);
    expect(statSync(file).size).toBeGreaterThan(before + 2 * 1024 * 1024);
  });
});
