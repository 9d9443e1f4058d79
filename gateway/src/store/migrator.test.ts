import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../testing/backends.js';
import { openDatabase, type StoreDatabase } from './database.js';
import { migrateToLatest } from './migrator.js';

const url = process.env.TEST_DATABASE_URL;
const opened: StoreDatabase[] = [];
const schemas: string[] = [];

afterAll(async () => {
  for (const database of opened) await database.close();
  for (const schema of schemas) await onPostgres(`drop schema if exists ${schema} cascade`);
});

/** A fresh schema of the test database. */
async function freshSchema(): Promise<string> {
  const schema = `migrator_${randomBytes(6).toString('hex')}`;
  schemas.push(schema);
  await onPostgres(`create schema ${schema}`);
  return schema;
}

/** The tables of `schema` by name. */
async function tablesOf(database: StoreDatabase, schema: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables where table_schema = ${schema}`.execute(
    database.db,
  );
  return rows.map((row) => row.name);
}

describe('migrateToLatest', () => {
  it.skipIf(!url)(
    `keeps its migration tables in the schema DATABASE_URL's search_path names, beside another schema that has its own${url ? '' : ' — skipped: TEST_DATABASE_URL is not set'}`,
    async () => {
      // Another store of the same database, migrated first: its kysely_migration_lock must not be taken for ours.
      const other = openDatabase({ databaseUrl: url!, pgSchema: await freshSchema() });
      opened.push(other);
      await migrateToLatest(other);

      // Ours: the schema only through the URL's options, as an operator's DATABASE_URL may carry it.
      const schema = await freshSchema();
      const withPath = new URL(url!);
      withPath.searchParams.set('options', `-c search_path=${schema}`);
      const ours = openDatabase({ databaseUrl: withPath.href });
      opened.push(ours);
      await migrateToLatest(ours);
      expect(await tablesOf(ours, schema)).toEqual(
        expect.arrayContaining(['kysely_migration', 'kysely_migration_lock', 'users']),
      );
      // A second start finds everything done, in its own schema.
      await migrateToLatest(ours);
    },
  );
});
