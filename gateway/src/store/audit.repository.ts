import { sql, type Kysely } from 'kysely';
import { Prepared } from './database.js';
import type { Database } from './schema.js';

/** Whether the decision an event records went the user's way. */
export type AuditOutcome = 'success' | 'failure';

/** Where an event happened: filled from the request being served (`AuditRepository.useContext`). */
export interface AuditContext {
  ip?: string | null | undefined;
  userAgent?: string | null | undefined;
  requestId?: string | null | undefined;
  partnerId?: string | null | undefined;
}

/** One audit event. */
export interface AuditEvent {
  at: number;
  kind: string;
  userId: string | null;
  ip: string | null;
  data: Record<string, unknown>;
  /** Derived from the kind when omitted (`…failed`, `…locked`, `…refused`, `…denied` are failures). */
  outcome?: AuditOutcome | undefined;
  userAgent?: string | null | undefined;
  requestId?: string | null | undefined;
  partnerId?: string | null | undefined;
}

/** A stored event, as the CLI reads it. */
export interface StoredAuditEvent extends AuditEvent {
  id: number;
  outcome: AuditOutcome;
}

/** What {@link AuditRepository.list} selects. */
export interface AuditFilter {
  userId?: string | undefined;
  /** Only events at or after this time (ms). */
  since?: number | undefined;
  /** Kinds or kind prefixes (`sign-in` matches `sign-in.failed`); letters, digits, `.` and `-` only (the CLI checks). */
  kinds?: readonly string[] | undefined;
  limit?: number | undefined;
}

/** What {@link AuditRepository.search} selects (the console's audit search, issue 52): every given filter applies. */
export interface AuditSearch {
  /** Exactly this actor (`data.actor`: a username, `cli:<os user>`, `guard`). */
  actor?: string | undefined;
  /** Exactly this subject (`data.subject`). */
  subject?: string | undefined;
  /** A kind or kind prefix, as {@link AuditFilter.kinds}. */
  kind?: string | undefined;
  /** Events of any of these partners only (support: its partners); undefined: any partner or none. */
  partnerIds?: readonly string[] | undefined;
  customerId?: string | undefined;
  /** At or after (ms). */
  from?: number | undefined;
  /** Before (ms). */
  to?: number | undefined;
  offset?: number | undefined;
  limit: number;
}

/** A stored event as the console's search answers it. */
export interface SearchedAuditEvent extends StoredAuditEvent {
  actor: string | null;
  subject: string | null;
  customerId: string | null;
}

/** Columns of an event as `record` writes them. */
const COLUMNS = [
  'at',
  'kind',
  'user_id',
  'ip',
  'data',
  'outcome',
  'user_agent',
  'request_id',
  'partner_id',
  'actor',
  'subject',
  'customer_id',
] as const;
type Column = (typeof COLUMNS)[number];
type Row = Record<Column, unknown>;

/** Statements of up to this many events at once are compiled once (a sign-in writes one or two). */
const PREPARED_EVENTS = 3;

const FAILURE = /(^|\.)(failed|locked|refused|denied|throttled)(\.|$)/;
const MAX_TEXT = 512;

/** The outcome an event's kind implies. */
export function outcomeOfKind(kind: string): AuditOutcome {
  return FAILURE.test(kind) ? 'failure' : 'success';
}

function clip(value: string | null | undefined): string | null {
  return value ? value.slice(0, MAX_TEXT) : null;
}

/** A string field of an event's data, clipped; null when absent or not a string. */
function dataText(data: Record<string, unknown>, key: string): string | null {
  const value = data[key];
  return typeof value === 'string' ? clip(value) : null;
}

/**
 * The audit trail (ADR 0015): one append-only table every sign-in decision and account change writes to, through
 * this one repository. Each event gets the request's context (source address, user agent, request id, partner)
 * from the context provider the gateway installs, so the services that record events need not carry it.
 */
export class AuditRepository {
  private context: () => AuditContext | undefined = () => undefined;
  /** The insert of 1, 2, … {@link PREPARED_EVENTS} events, compiled once each ({@link Prepared}). */
  private readonly inserts: Prepared<unknown, `${Column}${number}`>[] = [];

  constructor(private readonly db: Kysely<Database>) {
    for (let count = 1; count <= PREPARED_EVENTS; count++) {
      this.inserts.push(
        new Prepared(db, undefined, (param) =>
          db
            .insertInto('audit_events')
            .values(
              Array.from({ length: count }, (_, i) =>
                Object.fromEntries(COLUMNS.map((column) => [column, param(`${column}${i}`)])),
              ) as never,
            ),
        ),
      );
    }
  }

  /** Installs where events find their request context (the gateway's per-request storage). */
  useContext(provider: () => AuditContext | undefined): void {
    this.context = provider;
  }

  /**
   * Appends events in the order given, in one statement: events of one decision given together cost one write of
   * the table and its indexes (one commit) instead of one each.
   */
  async record(...events: [AuditEvent, ...AuditEvent[]]): Promise<void> {
    const context = this.context() ?? {};
    const rows = events.map((event): Row => ({
      at: event.at,
      kind: event.kind,
      user_id: event.userId ?? null,
      ip: clip(event.ip ?? context.ip),
      data: JSON.stringify(event.data),
      outcome: event.outcome ?? outcomeOfKind(event.kind),
      user_agent: clip(event.userAgent ?? context.userAgent),
      request_id: clip(event.requestId ?? context.requestId),
      partner_id: clip(event.partnerId ?? context.partnerId),
      // The console's audit shape, searchable by column (migration 0031).
      actor: dataText(event.data, 'actor'),
      subject: dataText(event.data, 'subject'),
      customer_id: dataText(event.data, 'customerId'),
    }));
    const prepared = this.inserts[rows.length - 1];
    if (!prepared) {
      await this.db
        .insertInto('audit_events')
        .values(rows as never)
        .execute();
      return;
    }
    const values: Record<string, unknown> = {};
    rows.forEach((row, i) => {
      for (const column of COLUMNS) values[`${column}${i}`] = row[column];
    });
    await prepared.run(values);
  }

  /** Events newest first, filtered by user, time and kind. */
  async list(filter: AuditFilter = {}): Promise<StoredAuditEvent[]> {
    let query = this.db.selectFrom('audit_events').selectAll();
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
    if (filter.since !== undefined) query = query.where('at', '>=', filter.since);
    const kinds = filter.kinds ?? [];
    if (kinds.length > 0)
      query = query.where((eb) =>
        eb.or(kinds.flatMap((k) => [eb('kind', '=', k), eb('kind', 'like', `${k}.%`)])),
      );
    const rows = await query
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit ?? 1000)
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      at: Number(r.at),
      kind: r.kind,
      userId: r.user_id,
      ip: r.ip,
      data: JSON.parse(r.data) as Record<string, unknown>,
      outcome:
        r.outcome === 'failure' ? 'failure' : r.outcome === 'success' ? 'success' : outcomeOfKind(r.kind),
      userAgent: r.user_agent,
      requestId: r.request_id,
      partnerId: r.partner_id,
    }));
  }

  /** The console's audit search: newest first, `limit` events from `offset`. */
  async search(filter: AuditSearch): Promise<SearchedAuditEvent[]> {
    let query = this.db.selectFrom('audit_events').selectAll();
    if (filter.actor !== undefined) query = query.where('actor', '=', filter.actor);
    if (filter.subject !== undefined) query = query.where('subject', '=', filter.subject);
    if (filter.kind !== undefined) {
      const kind = filter.kind;
      query = query.where((eb) => eb.or([eb('kind', '=', kind), eb('kind', 'like', `${kind}.%`)]));
    }
    if (filter.partnerIds !== undefined)
      query =
        filter.partnerIds.length === 0
          ? query.where(sql<boolean>`1 = 0`)
          : query.where('partner_id', 'in', [...filter.partnerIds]);
    if (filter.customerId !== undefined) query = query.where('customer_id', '=', filter.customerId);
    if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('at', '<', filter.to);
    const rows = await query
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset ?? 0)
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      at: Number(r.at),
      kind: r.kind,
      userId: r.user_id,
      ip: r.ip,
      data: JSON.parse(r.data) as Record<string, unknown>,
      outcome:
        r.outcome === 'failure' ? 'failure' : r.outcome === 'success' ? 'success' : outcomeOfKind(r.kind),
      userAgent: r.user_agent,
      requestId: r.request_id,
      partnerId: r.partner_id,
      actor: r.actor,
      subject: r.subject,
      customerId: r.customer_id,
    }));
  }

  async listForUser(userId: string, limit = 50): Promise<AuditEvent[]> {
    return this.list({ userId, limit });
  }

  async countByKind(kind: string): Promise<number> {
    const row = await this.db
      .selectFrom('audit_events')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('kind', '=', kind)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The retention in days set in the console (migration 0031); undefined until set. */
  async retentionDays(): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('audit_settings')
      .select('retention_days')
      .where('id', '=', 'audit')
      .executeTakeFirst();
    return row ? Number(row.retention_days) : undefined;
  }

  /** Stores the retention (every replica's purge reads it at its next run). */
  async setRetentionDays(days: number, by: string, at: number): Promise<void> {
    await this.db
      .insertInto('audit_settings')
      .values({ id: 'audit', retention_days: days, updated_at: at, updated_by: by })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({ retention_days: days, updated_at: at, updated_by: by }),
      )
      .execute();
  }

  /**
   * Deletes up to `batch` events older than `before` (ms) and answers how many went. Small batches keep each
   * statement short (SQLite runs it on the event loop), so a purge never holds requests back for long.
   */
  async purgeBatch(before: number, batch = 500): Promise<number> {
    const result = await this.db
      .deleteFrom('audit_events')
      .where('id', 'in', (eb) =>
        eb.selectFrom('audit_events').select('id').where('at', '<', before).orderBy('at').limit(batch),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
