import { z } from 'zod/mini';
import { REMOTE_IDS } from './remote.js';

/** State of one dependency: reachable, unreachable (or too slow), or not configured (a dev stand-in serves). */
export const DEPENDENCY_STATES = ['ok', 'down', 'standIn'] as const;
/** State of one dependency of the gateway. */
export type DependencyState = (typeof DEPENDENCY_STATES)[number];

/** The dependencies `SystemStatus` reports, in the order a status page lists them. */
export const DEPENDENCY_NAMES = ['database', 'sessionStore', 'mail', 'sms'] as const;
/** Name of a dependency `SystemStatus` reports. */
export type DependencyName = (typeof DEPENDENCY_NAMES)[number];

/**
 * Overall state: `ok` when every configured dependency answers, `down` when the database (the store of record) does
 * not, `degraded` when another one does not (session store, mail or SMS: part of the service fails). ADR 0015.
 */
export const OVERALL_STATES = ['ok', 'degraded', 'down'] as const;
/** Overall state of the service. */
export type OverallState = (typeof OVERALL_STATES)[number];

/** One row of `SystemStatus`: a dependency's state and since when it has been in it (ISO 8601). */
export const dependencyStatusSchema = z.object({
  name: z.enum(DEPENDENCY_NAMES),
  state: z.enum(DEPENDENCY_STATES),
  since: z.string(),
});

/** One remote's release state: the version everyone gets and, during a canary, the canary and its share. */
export const remoteStatusSchema = z.object({
  id: z.enum(REMOTE_IDS),
  version: z.nullable(z.string()),
  /** When the active version was published (ISO 8601), if known. */
  since: z.nullable(z.string()),
  canary: z.nullable(
    z.object({ version: z.string(), percent: z.number().check(z.int(), z.minimum(0), z.maximum(100)) }),
  ),
});
/** One remote's release state. */
export type RemoteStatus = z.infer<typeof remoteStatusSchema>;

/**
 * Answer of `SystemStatus` (SPEC.md §7 "Other"): what a status page may show anonymously and nothing more — no
 * host, no secret, no error text.
 */
export const systemStatusSchema = z.object({
  status: z.enum(OVERALL_STATES),
  /** When the probes ran (ISO 8601); the answer is cached for a few seconds. */
  checkedAt: z.string(),
  gateway: z.object({ version: z.string(), since: z.string() }),
  dependencies: z.array(dependencyStatusSchema),
  remotes: z.array(remoteStatusSchema),
});
/** Answer of `SystemStatus`. */
export type SystemStatus = z.infer<typeof systemStatusSchema>;

/** Which `/error/...` page an error record belongs to. */
export const ERROR_RECORD_PAGES = {
  /** A sign-in (an application's request or a step) that cannot go on and is not a form error. */
  signIn: '/error/signin',
  /** An interaction or flow that expired. */
  expired: '/error/expired',
  /** Anything else. */
  generic: '/error',
} as const;
/** Kind of a recorded error: names the page it lands on. */
export type ErrorRecordKind = keyof typeof ERROR_RECORD_PAGES;

/**
 * Safe, user-facing message keys of error records (translated under `errorPages.messages.<key>` in the shell). A
 * record never carries the raw error text: only one of these.
 */
export const ERROR_MESSAGE_KEYS = [
  'invalidRedirectUri',
  'unknownApplication',
  'invalidRequest',
  'accessDenied',
  'sessionExpired',
  'unexpected',
  /** An upstream provider refused the sign-in (issue 53): the record's `clientName` is the provider's name. */
  'upstreamFailed',
] as const;
/** A safe message key of an error record. */
export type ErrorMessageKey = (typeof ERROR_MESSAGE_KEYS)[number];

/** `errorId` as the gateway issues it: 16 characters of Crockford base32 (no I, L, O, U), easy to read aloud. */
export const ERROR_ID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{16}$/;

/** Query of the `Error` call. */
export const errorQuerySchema = z.object({
  errorId: z.string().check(z.regex(ERROR_ID_PATTERN, 'invalidValue')),
});

/**
 * Answer of `Error` (query errorId): the safe fields of a recorded error. `returnUrl` is the way back: the
 * application's own address when one is known, else absent (the page offers the sign-in page).
 */
export const errorRecordSchema = z.object({
  errorId: z.string(),
  kind: z.enum(Object.keys(ERROR_RECORD_PAGES) as [ErrorRecordKind, ...ErrorRecordKind[]]),
  messageKey: z.enum(ERROR_MESSAGE_KEYS),
  clientName: z.nullable(z.string()),
  returnUrl: z.nullable(z.string()),
  occurredAt: z.string(),
  requestId: z.nullable(z.string()),
});
/** Answer of `Error`. */
export type ErrorRecord = z.infer<typeof errorRecordSchema>;
