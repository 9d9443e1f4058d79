import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** One audit event. */
export interface AuditEvent {
  at: number;
  kind: string;
  userId: string | null;
  ip: string | null;
  data: Record<string, unknown>;
}

/** Audit events table access (append-only). */
export class AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async record(event: AuditEvent): Promise<void> {
    await this.db
      .insertInto('audit_events')
      .values({
        at: event.at,
        kind: event.kind,
        user_id: event.userId,
        ip: event.ip,
        data: JSON.stringify(event.data),
      })
      .execute();
  }

  async listForUser(userId: string, limit = 50): Promise<AuditEvent[]> {
    const rows = await this.db
      .selectFrom('audit_events')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      at: r.at,
      kind: r.kind,
      userId: r.user_id,
      ip: r.ip,
      data: JSON.parse(r.data) as Record<string, unknown>,
    }));
  }

  async countByKind(kind: string): Promise<number> {
    const row = await this.db
      .selectFrom('audit_events')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('kind', '=', kind)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
