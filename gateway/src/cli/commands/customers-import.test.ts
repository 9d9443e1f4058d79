/**
 * `admin customers import FILE.csv` and `admin memberships remove` as an operator runs them, on SQLite and (when
 * TEST_DATABASE_URL is set) PostgreSQL: thousands of rows in one go with progress lines, every bad row named with
 * its number and reason, and nothing stored unless the whole file is good.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../identity/passwords/passwords.service.js';
import { openTestBackends, type TestBackends } from '../../testing/backends.js';
import { runAdminCommand } from '../admin.js';
import { UsageError } from '../cli-support.js';

const SQL = [
  { sql: 'sqlite' as const, skip: false as const },
  {
    sql: 'postgres' as const,
    skip: process.env.TEST_DATABASE_URL ? (false as const) : 'TEST_DATABASE_URL is not set',
  },
];

for (const { sql, skip } of SQL) {
  describe.skipIf(skip)(`admin customers import (${sql})${skip ? ` — skipped: ${skip}` : ''}`, () => {
    let backends: TestBackends;
    let annId: string;
    let bobId: string;
    let fileNo = 0;

    beforeAll(async () => {
      backends = await openTestBackends({ sql, tempPrefix: 'admin-import-test-' });
      const { store } = backends;
      await store.partners.create({ id: 'acme', name: 'Acme' });
      const passwordHash = await hashPassword('S3cure-pass');
      for (const [username, roles] of [
        ['ann', ['MANAGER']],
        ['bob', ['EMPLOYEE']],
      ] as const) {
        await store.users.create({
          username,
          email: `${username}@example.test`,
          displayName: username,
          passwordHash,
          roles: [...roles],
          partnerId: null,
          passwordExpiresAt: null,
          requiresTwoFactor: false,
          disabled: false,
        });
      }
      annId = (await store.users.findByLogin('ann'))!.id;
      bobId = (await store.users.findByLogin('bob'))!.id;
      await store.customers.create({ id: 'taken', name: 'Already here', partnerId: null });
    });
    afterAll(async () => {
      await backends?.close();
    });

    /** Writes `text` to a file and runs `admin …args FILE`; the printed lines, and the one-line error if refused. */
    async function run(args: string[], text?: string): Promise<{ lines: string[]; error?: string }> {
      const file = path.join(backends.dir, `import-${++fileNo}.csv`);
      if (text !== undefined) writeFileSync(file, text);
      const lines: string[] = [];
      try {
        await runAdminCommand(backends.store, [...args, ...(text !== undefined ? [file] : [])], (line) =>
          lines.push(line),
        );
        return { lines };
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        expect(error.message).not.toContain('\n');
        return { lines, error: error.message };
      }
    }

    const countCustomers = async () => (await backends.store.customers.list()).length;

    it('imports thousands of rows in one go, with progress lines and the members and roles of each', async () => {
      const rows = Array.from(
        { length: 3000 },
        (_, i) =>
          `bulk-${i},"Bulk ${i}, Ltd",acme,${i % 2 === 0 ? 'ann' : ''},${i === 0 ? 'HR_ADMIN;2' : ''}`,
      );
      // A second member of the first customer, in a row of its own.
      rows.push('bulk-0,"Bulk 0, Ltd",acme,bob,');
      const { lines, error } = await run(
        ['customers', 'import'],
        `ID,Name,Partner,Username,Roles\r\n${rows.join('\r\n')}\r\n`,
      );
      expect(error).toBeUndefined();
      const progress = lines.filter((l) => l.startsWith('importing: '));
      expect(progress.length).toBeGreaterThanOrEqual(2);
      expect(progress.length).toBeLessThanOrEqual(11);
      expect(progress.at(-1)).toBe('importing: 3000/3000 customers');
      expect(lines.at(-1)).toBe('imported 3000 customers and 1501 memberships');

      const { store } = backends;
      expect(await store.customers.findById('bulk-7')).toEqual({
        id: 'bulk-7',
        name: 'Bulk 7, Ltd',
        partnerId: 'acme',
      });
      expect(await store.customers.countCustomersOf(annId)).toBe(1500);
      expect(await store.customers.membershipOf(annId, 'bulk-0')).toMatchObject({
        roles: ['HR_ADMIN', 'MANAGER'],
      });
      expect(await store.customers.membershipOf(annId, 'bulk-2')).toMatchObject({ roles: ['MANAGER'] });
      expect(await store.customers.membershipOf(bobId, 'bulk-0')).toMatchObject({ roles: ['EMPLOYEE'] });
      expect(await store.customers.membershipOf(annId, 'bulk-1')).toBeUndefined();
      // Searchable like any other customer (the folded search key is stored too).
      const found = await store.customers.searchCustomersOf(annId, {
        filter: 'BULK 10',
        offset: 0,
        limit: 50,
      });
      expect(found.customers.map((c) => c.name)).toContain('Bulk 10, Ltd');
    });

    it('lists every bad row with its number and reason, and imports nothing', async () => {
      const before = await countCustomers();
      const { lines, error } = await run(
        ['customers', 'import'],
        [
          'id,name,partner,username,roles',
          'good-1,Good One,acme,ann,',
          ',No id,,,',
          'no-name,,,,',
          'bad-partner,Bad partner,globex,,',
          'bad-user,Bad user,,nobody,',
          'bad-role,Bad role,,ann,EMPLOYEE;WIZARD',
          'taken,Taken,,,',
          'good-1,Other name,acme,bob,',
          'good-1,Good One,acme,ann,',
          'short,row',
          'roles-alone,Roles alone,,,MANAGER',
          'has space,Spaced,,,',
          'good-2,Good Two,,,',
        ].join('\n'),
      );
      expect(error).toBe('11 bad rows; nothing was imported');
      expect(lines).toEqual([
        'row 3: id is empty',
        'row 4: name is empty',
        'row 5: no partner "globex"',
        'row 6: no user "nobody"',
        expect.stringMatching(/^row 7: unknown role "WIZARD"/),
        'row 8: customer "taken" already exists',
        'row 9: customer "good-1" has another name or partner in row 2',
        'row 10: "ann" is already a member of "good-1" in an earlier row',
        'row 11: 2 fields, the header has 5',
        'row 12: roles are given without a username',
        'row 13: id "has space" holds a space or control character',
      ]);
      expect(await countCustomers()).toBe(before);
      expect(await backends.store.customers.findById('good-1')).toBeUndefined();
      expect(await backends.store.customers.findById('good-2')).toBeUndefined();
    });

    it('refuses a file without the required columns, an empty file, broken CSV and a missing file', async () => {
      expect((await run(['customers', 'import'], 'name,owner\nX,Y\n')).lines).toEqual([
        'row 1: unknown column "owner" (columns: id, name, partner, username, roles)',
        'row 1: the column "id" is missing',
      ]);
      expect((await run(['customers', 'import'], '')).lines).toEqual([
        'the file is empty (a header row is required)',
      ]);
      expect((await run(['customers', 'import'], 'id,name\n')).lines).toEqual([
        'the file has no rows under its header',
      ]);
      const broken = await run(['customers', 'import'], 'id,name\nx,"unclosed\n');
      expect(broken).toEqual({
        lines: ['row 2: a quoted field is not closed'],
        error: '1 bad row; nothing was imported',
      });
      expect(await run(['customers', 'import', path.join(backends.dir, 'nope.csv')])).toEqual({
        lines: [],
        error: `cannot read ${path.join(backends.dir, 'nope.csv')}: ENOENT`,
      });
      expect((await run(['customers', 'import'])).error).toBe('FILE.csv is required');
    });

    it('a failure while storing leaves nothing behind (one transaction)', async () => {
      const before = await countCustomers();
      const { store } = backends;
      // Every row passes the checks; the database refuses a row of the second batch, after the first was written.
      const importAll = store.customers.importAll.bind(store.customers);
      store.customers.importAll = (customers, onProgress) =>
        importAll(
          customers.map((c, i) => (i === 250 ? { ...c, name: null as unknown as string } : c)),
          onProgress,
        );
      const rows = Array.from({ length: 300 }, (_, i) => `atomic-${i},Atomic ${i},ann`);
      try {
        await expect(
          run(['customers', 'import'], `id,name,username\n${rows.join('\n')}\n`),
        ).rejects.toThrow();
      } finally {
        store.customers.importAll = importAll;
      }
      expect(await countCustomers()).toBe(before);
      expect(await store.customers.findById('atomic-0')).toBeUndefined();
      expect(await store.customers.membershipOf(annId, 'atomic-0')).toBeUndefined();
    });

    it('memberships remove ends one membership; an unknown one is refused', async () => {
      expect(
        (await run(['memberships', 'remove', '--username', 'bob', '--customer', 'bulk-0'])).lines,
      ).toEqual(['bob is no longer a member of bulk-0']);
      expect(await backends.store.customers.membershipOf(bobId, 'bulk-0')).toBeUndefined();
      expect(await backends.store.customers.membershipOf(annId, 'bulk-0')).toBeDefined();
      expect((await run(['memberships', 'remove', '--username', 'bob', '--customer', 'bulk-0'])).error).toBe(
        'bob is not a member of "bulk-0"',
      );
      expect(
        (await run(['memberships', 'remove', '--username', 'nobody', '--customer', 'bulk-0'])).error,
      ).toBe('no user "nobody"');
    });
  });
}
