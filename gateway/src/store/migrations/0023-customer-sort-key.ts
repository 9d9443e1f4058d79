import { sql, type Kysely } from 'kysely';
import { customerSortKey } from '../customer-search-key.js';
import type { Dialect } from '../database.js';

// Issue 43: the customer list in natural order ("Branch 2" before "Branch 10"), still paged from one index.
// - customers.sort_key / memberships.sort_key: the folded name with each number written as its length then its digits
//   (`customerSortKey`), computed in JavaScript on write like search_key (Unicode folding is not SQL's); the membership
//   carries its customer's key so the user's list never reads the customers table to order.
// - On PostgreSQL the column compares as bytes (COLLATE "C"), as SQLite's BINARY does: a database created with a
//   language collation (en_US.UTF-8 ignores spaces and punctuation at first) must not order the pages differently.
// - memberships(user_id, sort_key, customer_id, search_key): the unfiltered list walks it in order from the offset;
//   search_key rides along so a filtered page is found in the same index without reading the rows.
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const bytewise = dialect === 'postgres' ? sql`collate "C"` : undefined;
  for (const table of ['customers', 'memberships']) {
    await db.schema
      .alterTable(table)
      .addColumn('sort_key', 'text', (c) => (bytewise ? c.modifyEnd(bytewise) : c))
      .execute();
  }
  const rows = await sql<{ id: string; name: string }>`select id, name from customers`.execute(db);
  for (const row of rows.rows) {
    await sql`update customers set sort_key = ${customerSortKey(row.name)} where id = ${row.id}`.execute(db);
  }
  await sql`update memberships set sort_key = (select c.sort_key from customers c where c.id = memberships.customer_id)`.execute(
    db,
  );
  await db.schema
    .createIndex('memberships_user_sort_key')
    .on('memberships')
    .columns(['user_id', 'sort_key', 'customer_id', 'search_key'])
    .execute();
}
