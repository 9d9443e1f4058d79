import { sql, type Kysely } from 'kysely';

// Issue 51 (ADR 0058): the operators' console has grants of its own, apart from the roles HR applications receive as
// claims. One row per grant: a role and where it applies (support: a partner; customer administrator: one customer,
// with that customer's partner beside it; platform administrator and release manager: everywhere, both null).
// - granted_by: the actor as the audit records it (a username, or `cli:<os user>`).
// - One grant per (user, role, partner, customer). A plain unique constraint would let two global grants of one role
//   in, as NULLs are distinct in both PostgreSQL and SQLite; the index is over the ids with NULL read as '' (no id is
//   empty), an expression index both engines build and enforce alike.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('console_grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('partner_id', 'text', (c) => c.references('partners.id').onDelete('cascade'))
    .addColumn('customer_id', 'text', (c) => c.references('customers.id').onDelete('cascade'))
    .addColumn('granted_by', 'text', (c) => c.notNull())
    .addColumn('granted_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('console_grants_unique')
    .on('console_grants')
    .unique()
    .expression(sql`user_id, role, coalesce(partner_id, ''), coalesce(customer_id, '')`)
    .execute();
  // "Who holds this role" (the last platform administrator's check, the console's list by role).
  await db.schema.createIndex('console_grants_role').on('console_grants').column('role').execute();
}
