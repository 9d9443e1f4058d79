import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

// The outbox keeps the HTML part of a mail next to its text, and SMS entries have no subject.
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await db.schema.alterTable('outbox').addColumn('html', 'text').execute();
    await db.schema
      .alterTable('outbox')
      .alterColumn('subject', (c) => c.dropNotNull())
      .execute();
    return;
  }
  // SQLite cannot drop NOT NULL in place: the table is rebuilt with the same ids (so `admin outbox` numbering and
  // the AUTOINCREMENT sequence carry on). Kysely runs SQLite migrations outside a transaction, so this one opens its
  // own: a crash between the drop and the rename must not lose the outbox.
  await db.transaction().execute(async (trx) => {
    await trx.schema
      .createTable('outbox_next')
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('recipient', 'text', (c) => c.notNull())
      .addColumn('subject', 'text')
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('html', 'text')
      .execute();
    await sql`insert into outbox_next (id, channel, recipient, subject, body, created_at)
      select id, channel, recipient, subject, body, created_at from outbox`.execute(trx);
    await trx.schema.dropTable('outbox').execute();
    await trx.schema.alterTable('outbox_next').renameTo('outbox').execute();
  });
}
