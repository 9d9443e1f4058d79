/**
 * The dev outbox as operators (and `admin outbox`) read it: both channels, newest first, filtered by recipient;
 * and mail kept before migration 0002 still reads back after it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../infra/clock.js';
import { BACKENDS, openTestBackends, type TestBackends } from '../testing/backends.js';
import { openDatabase, type StoreDatabase } from './database.js';
import * as initial from './migrations/0001-initial.js';
import { migrateToLatest } from './migrator.js';
import { OutboxRepository } from './outbox.repository.js';

for (const backend of BACKENDS) {
  const sqlKind = backend.name === 'sqlite' ? 'sqlite' : 'postgres';

  describe.skipIf(backend.skip)(
    `outbox repository on ${sqlKind}${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let backends: TestBackends;
      const clock = new ManualClock(Date.UTC(2025, 5, 1, 12));
      beforeEach(async () => {
        backends = await openTestBackends({ sql: sqlKind, now: () => clock.now() });
      });
      afterEach(async () => {
        await backends.close();
      });

      it('adds mail and SMS and lists them newest first', async () => {
        const outbox = backends.store.outbox;
        const mail = await outbox.add({
          channel: 'email',
          to: 'ann@example.test',
          subject: 'Reset your password',
          text: 'Link: https://id.example.test/r',
          html: '<p>Link</p>',
        });
        clock.advance(1000);
        const sms = await outbox.add({ channel: 'sms', to: '+447700900123', text: 'Code 123456' });

        expect(mail).toEqual({
          id: mail.id,
          at: Date.UTC(2025, 5, 1, 12),
          channel: 'email',
          to: 'ann@example.test',
          subject: 'Reset your password',
          text: 'Link: https://id.example.test/r',
          html: '<p>Link</p>',
        });
        expect(sms).toMatchObject({
          channel: 'sms',
          subject: null,
          html: null,
          at: Date.UTC(2025, 5, 1, 12) + 1000,
        });
        expect(sms.id).toBeGreaterThan(mail.id);
        expect(await outbox.list()).toEqual([sms, mail]);
      });

      it('lists the last 20 by default, or as many as asked', async () => {
        const outbox = backends.store.outbox;
        for (let i = 0; i < 25; i += 1)
          await outbox.add({ channel: 'sms', to: '+15555550100', text: `message ${i}` });
        const listed = await outbox.list();
        expect(listed.map((e) => e.text)).toEqual(Array.from({ length: 20 }, (_, i) => `message ${24 - i}`));
        expect((await outbox.list({ last: 3 })).map((e) => e.text)).toEqual([
          'message 24',
          'message 23',
          'message 22',
        ]);
        expect(await outbox.list({ last: 1000 })).toHaveLength(25);
      });

      it('filters by recipient, whatever the case', async () => {
        const outbox = backends.store.outbox;
        await outbox.add({ channel: 'email', to: 'Ann@Example.test', subject: 'a', text: 'for ann' });
        await outbox.add({ channel: 'email', to: 'bob@example.test', subject: 'b', text: 'for bob' });
        await outbox.add({ channel: 'email', to: 'ann@example.test', subject: 'c', text: 'for ann again' });
        expect((await outbox.list({ to: 'ANN@example.test' })).map((e) => e.text)).toEqual([
          'for ann again',
          'for ann',
        ]);
        expect(await outbox.list({ to: 'nobody@example.test' })).toEqual([]);
        expect((await outbox.list({ to: 'ann@example.test', last: 1 })).map((e) => e.text)).toEqual([
          'for ann again',
        ]);
      });

      it('refuses bad input with a clear error', async () => {
        const outbox = backends.store.outbox;
        await expect(outbox.add({ channel: 'fax' as 'sms', to: 'x', text: 't' })).rejects.toThrow(
          /channel must be one of email, sms/,
        );
        await expect(outbox.add({ channel: 'sms', to: '  ', text: 't' })).rejects.toThrow(
          /needs a recipient/,
        );
        for (const last of [0, -1, 1.5, 1001, Number.NaN])
          await expect(outbox.list({ last })).rejects.toThrow(/whole number from 1 to 1000/);
        expect(await outbox.list()).toEqual([]);
      });
    },
  );
}

// Migration 0002 rebuilds the SQLite table (and alters the PostgreSQL one): mail kept before it must survive.
for (const backend of BACKENDS) {
  const sqlKind = backend.name === 'sqlite' ? 'sqlite' : 'postgres';
  describe.skipIf(backend.skip)(
    `outbox migration 0002 on ${sqlKind}${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      it('keeps rows and ids from before, and allows SMS without a subject after', async () => {
        const dir = mkdtempSync(path.join(tmpdir(), 'outbox-migration-'));
        const schema = `test_${randomBytes(6).toString('hex')}`;
        const admin = async (statement: string) => {
          const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
          await client.connect();
          await client.query(statement);
          await client.end();
        };
        if (sqlKind === 'postgres') await admin(`create schema ${schema}`);
        let database: StoreDatabase | undefined;
        try {
          database =
            sqlKind === 'postgres'
              ? openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, pgSchema: schema })
              : openDatabase({ sqliteFile: path.join(dir, 'identity.db') });
          const opened = database;
          // Only 0001, as a database made before this change is.
          const first = new Migrator({
            db: opened.db,
            provider: {
              getMigrations: () =>
                Promise.resolve({ '0001-initial': { up: (db) => initial.up(db, opened.dialect) } }),
            },
            ...(opened.schema ? { migrationTableSchema: opened.schema } : {}),
          });
          expect((await first.migrateToLatest()).error).toBeUndefined();
          await sql`insert into outbox (channel, recipient, subject, body, created_at)
          values ('email', 'old@example.test', 'Old subject', 'Old body', 1000)`.execute(opened.db);

          await migrateToLatest(opened);

          const outbox = new OutboxRepository(opened.db, () => 2000);
          const [old] = await outbox.list();
          expect(old).toEqual({
            id: old!.id,
            at: 1000,
            channel: 'email',
            to: 'old@example.test',
            subject: 'Old subject',
            text: 'Old body',
            html: null,
          });
          const sms = await outbox.add({ channel: 'sms', to: '+15555550100', text: 'Code' });
          expect(sms.id).toBeGreaterThan(old!.id);
          expect((await outbox.list()).map((e) => e.subject)).toEqual([null, 'Old subject']);
        } finally {
          await database?.close();
          if (sqlKind === 'postgres') await admin(`drop schema ${schema} cascade`);
          rmSync(dir, { recursive: true, force: true });
        }
      });
    },
  );
}
