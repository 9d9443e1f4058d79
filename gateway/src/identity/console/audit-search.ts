import {
  AUDIT_EXPORT_LIMIT,
  AUDIT_PAGE_SIZE,
  type AuditEventView,
  type AuditRetention,
  type ConsoleAudit,
  type ConsoleAuditRequest,
  type ConsoleGrant,
} from 'shared-contracts/console';
import type { Clock } from '../../infra/clock.js';
import type { AuditSearch, SearchedAuditEvent } from '../../store/audit.repository.js';
import { DEFAULT_AUDIT_RETENTION_DAYS } from '../ops/audit-retention.js';
import type { ConsoleActor } from './console-actor.js';
import type { Store } from '../../store/store.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Which events an operator may read: every partner's (undefined) or those of the listed partners only. */
export interface AuditReach {
  partnerIds: readonly string[] | undefined;
}

/**
 * An operator's reach in the audit (the row of `ConsoleAudit` has scope 'partner': the guard lets through a grant
 * everywhere or over a whole partner): a grant everywhere reads every event; support reads its partners' events only.
 */
export function auditReachOf(grants: readonly ConsoleGrant[]): AuditReach {
  if (grants.some((g) => g.partnerId === null && g.customerId === null)) return { partnerIds: undefined };
  return {
    partnerIds: [
      ...new Set(grants.flatMap((g) => (g.customerId === null && g.partnerId !== null ? [g.partnerId] : []))),
    ],
  };
}

/** Why a search was refused: a field and its error code. */
export interface AuditSearchRefusal {
  field: 'to' | 'partnerId';
  code: 'auditToBeforeFrom' | 'auditOtherPartner';
  status: 400 | 403;
}

/** A day `YYYY-MM-DD` as ms at its start (UTC), or undefined when it is no calendar day (2025-02-30). */
function dayStart(day: string): number | undefined {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day ? undefined : ms;
}

/**
 * The search's filter within the operator's reach, or why not: days inclusive (UTC), `to` not before `from`, a
 * partner asked for within reach (support naming another partner is refused, never answered empty or otherwise).
 */
export function auditFilterOf(
  request: ConsoleAuditRequest,
  reach: AuditReach,
):
  | Omit<AuditSearch, 'limit'>
  | AuditSearchRefusal
  | { field: 'from' | 'to'; code: 'invalidValue'; status: 400 } {
  const from = request.from === undefined ? undefined : dayStart(request.from);
  if (request.from !== undefined && from === undefined)
    return { field: 'from', code: 'invalidValue', status: 400 };
  const toStart = request.to === undefined ? undefined : dayStart(request.to);
  if (request.to !== undefined && toStart === undefined)
    return { field: 'to', code: 'invalidValue', status: 400 };
  if (from !== undefined && toStart !== undefined && toStart < from)
    return { field: 'to', code: 'auditToBeforeFrom', status: 400 };
  let partnerIds = reach.partnerIds;
  if (request.partnerId !== undefined) {
    if (partnerIds !== undefined && !partnerIds.includes(request.partnerId))
      return { field: 'partnerId', code: 'auditOtherPartner', status: 403 };
    partnerIds = [request.partnerId];
  }
  return {
    actor: request.actor,
    subject: request.subject,
    kind: request.kind,
    partnerIds,
    customerId: request.customerId,
    from,
    to: toStart === undefined ? undefined : toStart + DAY_MS,
  };
}

/** One stored event as the console shows it. */
export function auditEventView(event: SearchedAuditEvent): AuditEventView {
  const reason = event.data.reason;
  return {
    id: event.id,
    at: new Date(event.at).toISOString(),
    kind: event.kind,
    outcome: event.outcome,
    actor: event.actor,
    subject: event.subject,
    reason: typeof reason === 'string' ? reason : null,
    userId: event.userId,
    ip: event.ip,
    userAgent: event.userAgent ?? null,
    requestId: event.requestId ?? null,
    partnerId: event.partnerId ?? null,
    customerId: event.customerId,
    data: event.data,
  };
}

/**
 * One CSV cell (RFC 4180: quoted, quotes doubled), safe to open in a spreadsheet: a cell starting with `=`, `+`,
 * `-`, `@`, a tab or a carriage return would be read as a formula (CSV injection), so it gets a leading `'`.
 */
export function csvCell(value: unknown): string {
  let text =
    value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** The export's columns, in order. */
export const AUDIT_CSV_COLUMNS = [
  'at',
  'kind',
  'outcome',
  'actor',
  'subject',
  'reason',
  'userId',
  'ip',
  'userAgent',
  'requestId',
  'partnerId',
  'customerId',
  'data',
] as const satisfies readonly (keyof AuditEventView)[];

/** Events as CSV: a header row, then one row per event, CRLF line ends (RFC 4180). */
export function auditCsv(events: readonly AuditEventView[]): string {
  const lines = [AUDIT_CSV_COLUMNS.map(csvCell).join(',')];
  for (const event of events) lines.push(AUDIT_CSV_COLUMNS.map((column) => csvCell(event[column])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * The console's audit search (issue 52, ADR 0063) over the one audit repository: a page of events newest first,
 * or the CSV of the same filter, within the operator's reach.
 */
export function createConsoleAuditService(deps: {
  store: Pick<Store, 'audit'>;
  clock: Clock;
  /** AUDIT_RETENTION_DAYS: the retention until one is set. */
  defaultRetentionDays?: number | undefined;
}) {
  const { audit } = deps.store;
  const defaultDays = deps.defaultRetentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS;
  async function retention(): Promise<AuditRetention> {
    const stored = await audit.retentionDays();
    return { days: stored ?? defaultDays, stored: stored !== undefined };
  }
  return {
    /** `AuditRetention`: the days events are kept (the stored setting, else AUDIT_RETENTION_DAYS). */
    retention,
    /**
     * Sets the retention, audited as `console.audit.retention.changed` with the console's shape; the purge of every
     * replica applies it at its next run.
     */
    async setRetention(days: number, actor: ConsoleActor, reason: string | null): Promise<AuditRetention> {
      const before = await retention();
      const at = deps.clock.now();
      await audit.setRetentionDays(days, actor.name, at);
      await audit.record({
        at,
        kind: 'console.audit.retention.changed',
        userId: actor.userId,
        ip: null,
        data: { actor: actor.name, subject: 'audit retention', reason, days, previousDays: before.days },
      });
      return retention();
    },
    /** One page (from 1) of the filter's events, newest first. */
    async search(filter: Omit<AuditSearch, 'limit'>, page: number): Promise<ConsoleAudit> {
      const found = await audit.search({
        ...filter,
        offset: (page - 1) * AUDIT_PAGE_SIZE,
        limit: AUDIT_PAGE_SIZE + 1,
      });
      return {
        events: found.slice(0, AUDIT_PAGE_SIZE).map(auditEventView),
        page,
        hasMore: found.length > AUDIT_PAGE_SIZE,
      };
    },
    /** The filter's events (at most {@link AUDIT_EXPORT_LIMIT}, newest first) as CSV. */
    async exportCsv(filter: Omit<AuditSearch, 'limit'>): Promise<string> {
      return auditCsv((await audit.search({ ...filter, limit: AUDIT_EXPORT_LIMIT })).map(auditEventView));
    },
  };
}

/** The console's audit search. */
export type ConsoleAuditService = ReturnType<typeof createConsoleAuditService>;
