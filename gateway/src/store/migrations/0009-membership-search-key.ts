import { sql, type Kysely } from 'kysely';

// Customer selection for users with thousands of customers (ADR 0009): the user's list is searched, counted and
// paged from one index, memberships(user_id, search_key, customer_id), without reading the customers table or
// sorting: each membership carries its customer's folded name (written with the membership; customers are not
// renamed). The customers table is read only for the one page shown.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('memberships').addColumn('search_key', 'text').execute();
  await sql`update memberships set search_key = (select c.search_key from customers c where c.id = memberships.customer_id)`.execute(
    db,
  );
  await db.schema
    .createIndex('memberships_user_search_key')
    .on('memberships')
    .columns(['user_id', 'search_key', 'customer_id'])
    .execute();
}
