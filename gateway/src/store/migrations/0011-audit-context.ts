import type { Kysely } from 'kysely';

// The audit trail's context (ADR 0015): the outcome of the decision, the browser's user agent, the request id the
// logs carry and the partner whose site it happened on; indexes for the CLI's newest-first reads by time and kind
// and for the retention purge, which deletes by time.
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['outcome', 'user_agent', 'request_id', 'partner_id'])
    await db.schema.alterTable('audit_events').addColumn(column, 'text').execute();
  await db.schema.createIndex('audit_events_at').on('audit_events').columns(['at']).execute();
  await db.schema.createIndex('audit_events_kind').on('audit_events').columns(['kind', 'at']).execute();
}
