import { sql, type Kysely } from 'kysely';
import { customerSearchKey } from '../customer-search-key.js';

// Customer selection (ADR 0009): a user may belong to thousands of customers and searches them as they type.
// - customers.search_key: the name folded for search (lower case, accents and compatibility forms removed), so one
//   LIKE works alike on SQLite and PostgreSQL whatever their collations; written by the repository with the name.
// - memberships.last_selected_at: the customer the user worked in last is listed first.
// - memberships(user_id, last_selected_at): the search starts from the user's memberships (the primary key's
//   user_id prefix) and finds the last used one without reading them all.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('customers').addColumn('search_key', 'text').execute();
  await db.schema.alterTable('memberships').addColumn('last_selected_at', 'bigint').execute();
  // Existing rows get their key here (the folding is JavaScript's Unicode normalisation, not SQL's).
  const rows = await sql<{ id: string; name: string }>`select id, name from customers`.execute(db);
  for (const row of rows.rows) {
    await sql`update customers set search_key = ${customerSearchKey(row.name)} where id = ${row.id}`.execute(
      db,
    );
  }
  await db.schema.createIndex('customers_search_key').on('customers').columns(['search_key', 'id']).execute();
  await db.schema
    .createIndex('memberships_user_last_selected')
    .on('memberships')
    .columns(['user_id', 'last_selected_at'])
    .execute();
}
