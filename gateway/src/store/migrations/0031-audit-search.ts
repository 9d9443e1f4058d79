import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

// The console's audit search (issue 52, ADR 0063): who acted (`data.actor`), on what (`data.subject`) and for which
// customer (`data.customerId`) denormalised into columns of their own, filled by AuditRepository.record from then
// on and copied here from the events already stored, each with an index by time, as the partner has one now: the
// search asks for one actor, subject, partner or customer newest first, and neither engine indexes inside JSON text
// alike.
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  for (const column of ['actor', 'subject', 'customer_id'])
    await db.schema.alterTable('audit_events').addColumn(column, 'text').execute();
  await backfillAuditSearch(db, dialect);
  await db.schema.createIndex('audit_events_actor').on('audit_events').columns(['actor', 'at']).execute();
  await db.schema.createIndex('audit_events_subject').on('audit_events').columns(['subject', 'at']).execute();
  await db.schema
    .createIndex('audit_events_partner')
    .on('audit_events')
    .columns(['partner_id', 'at'])
    .execute();
  await db.schema
    .createIndex('audit_events_customer')
    .on('audit_events')
    .columns(['customer_id', 'at'])
    .execute();
  // The retention set in the console (SetAuditRetention): one row every replica's hourly purge reads; none until
  // set, and then AUDIT_RETENTION_DAYS applies.
  await db.schema
    .createTable('audit_settings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('retention_days', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .execute();
}

/**
 * Copies `data.actor`, `data.subject` and `data.customerId` of the events stored before into their columns (text
 * values only, clipped as `record` clips), leaving the rest null.
 */
export async function backfillAuditSearch(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const field = (name: string) =>
    dialect === 'postgres'
      ? sql`case when jsonb_typeof(data::jsonb -> ${name}) = 'string' then left(data::jsonb ->> ${name}, 512) end`
      : sql`case when json_type(data, ${`$.${name}`}) = 'text' then substr(json_extract(data, ${`$.${name}`}), 1, 512) end`;
  // Only events of the console's shape carry these (an actor); the rest stay null.
  await sql`update audit_events set actor = ${field('actor')}, subject = ${field('subject')}, customer_id = ${field('customerId')} where data like ${'%"actor"%'}`.execute(
    db,
  );
}
