import { z } from 'zod/mini';

/**
 * The console's audit search (issue 52, ADR 0063): `ConsoleAudit` (GET, paged, newest first) and
 * `ConsoleAuditExport` (GET, the same filter as CSV) over the audit trail every service writes to.
 */

/** Events per page of `ConsoleAudit`. */
export const AUDIT_PAGE_SIZE = 50;
/** At most this many events in one CSV export (newest first). */
export const AUDIT_EXPORT_LIMIT = 10_000;

/** A calendar day, `YYYY-MM-DD` (the date picker's value); days are UTC. */
const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));
const text = z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(256)));

/**
 * The search's filter (query string): exactly this actor (a username, `cli:<os user>`, `guard`), this subject, a
 * kind or kind prefix (`console.grant` matches `console.grant.added`), a partner, a customer, and days `from` – `to`
 * inclusive; `page` from 1. Empty values are no filter.
 */
export const consoleAuditRequestSchema = z.object({
  actor: text,
  subject: text,
  kind: z.optional(z.string().check(z.regex(/^[A-Za-z0-9.-]{1,64}$/))),
  partnerId: text,
  customerId: text,
  from: z.optional(day),
  to: z.optional(day),
  page: z.optional(z.string().check(z.regex(/^[1-9]\d{0,4}$/))),
});
/** Request of `ConsoleAudit` / `ConsoleAuditExport`. */
export type ConsoleAuditRequest = z.infer<typeof consoleAuditRequestSchema>;

/** One audit event as the search shows it. */
export const auditEventSchema = z.object({
  id: z.number(),
  /** ISO 8601. */
  at: z.string(),
  kind: z.string(),
  outcome: z.enum(['success', 'failure']),
  actor: z.nullable(z.string()),
  subject: z.nullable(z.string()),
  reason: z.nullable(z.string()),
  userId: z.nullable(z.string()),
  ip: z.nullable(z.string()),
  userAgent: z.nullable(z.string()),
  requestId: z.nullable(z.string()),
  partnerId: z.nullable(z.string()),
  customerId: z.nullable(z.string()),
  /** The event's own data (JSON), minus nothing: what the kind records. */
  data: z.record(z.string(), z.unknown()),
});
/** One searched audit event. */
export type AuditEventView = z.infer<typeof auditEventSchema>;

/** Answer of `ConsoleAudit`. */
export const consoleAuditSchema = z.object({
  events: z.array(auditEventSchema),
  page: z.number(),
  /** Whether a next page has events. */
  hasMore: z.boolean(),
});
/** A page of the audit search. */
export type ConsoleAudit = z.infer<typeof consoleAuditSchema>;

/** The shortest and longest retention the console accepts, in days. */
export const AUDIT_RETENTION_LIMITS = { min: 1, max: 3650 } as const;
const retentionDays = z
  .number()
  .check(z.int(), z.minimum(AUDIT_RETENTION_LIMITS.min), z.maximum(AUDIT_RETENTION_LIMITS.max));

/** Answer of `AuditRetention`: how many days events are kept, and whether that is the stored setting or the default. */
export const auditRetentionSchema = z.object({
  days: retentionDays,
  /** False: no setting stored yet, `days` is the gateway's AUDIT_RETENTION_DAYS. */
  stored: z.boolean(),
});
/** The audit retention. */
export type AuditRetention = z.infer<typeof auditRetentionSchema>;

/** Request of `SetAuditRetention`: the new retention in days, and why. */
export const setAuditRetentionRequestSchema = z.object({
  days: retentionDays,
  reason: z.optional(z.string().check(z.maxLength(500))),
});
/** Request of `SetAuditRetention`. */
export type SetAuditRetentionRequest = z.infer<typeof setAuditRetentionRequestSchema>;

/** The largest CSV `ImportCustomers` takes in the page (the account API's JSON bodies stop at 64 kB). */
export const IMPORT_CSV_MAX = 60_000;

/**
 * Request of `ImportCustomers`: the CSV of customers and memberships (the admin CLI's `customers import` file:
 * header `id,name,partner,username,roles`), and why. All or nothing: a file with a bad row stores nothing and is
 * answered 400 with every bad row's reasons under `csv`, each a code of the errors map with its row and what was wrong
 * (`importUnknownUser|{"row":4,"username":"ann"}`), so the page says them in the reader's language.
 */
export const importCustomersRequestSchema = z.object({
  csv: z.string().check(z.minLength(1), z.maxLength(IMPORT_CSV_MAX)),
  reason: z.optional(z.string().check(z.maxLength(500))),
});
/** Request of `ImportCustomers`. */
export type ImportCustomersRequest = z.infer<typeof importCustomersRequestSchema>;

/** Answer of `ImportCustomers`: what was stored. */
export const importCustomersSchema = z.object({ customers: z.number(), memberships: z.number() });
/** What an import stored. */
export type ImportedCustomers = z.infer<typeof importCustomersSchema>;
