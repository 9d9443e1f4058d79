import { z } from 'zod/mini';
import { REMOTE_IDS } from '../remote.js';
import { CONSOLE_ROLES, type ConsoleRole } from './roles.js';

/**
 * The operators' console (issues 51–52, ADR 0058): its grants, permissions and calls, agreed by the gateway (which
 * enforces them in its access table) and the console remote `mfe-admin` (which shows only what they allow). A
 * separate entry (`shared-contracts/console`) so no sign-in page carries a byte of it.
 */

/**
 * The console's grants, apart from the roles HR applications receive as claims (SPEC.md's roles): a platform
 * administrator (everything), a release manager (releases only), support (the people of one partner) and a customer
 * administrator (the members of named customers).
 */
export { CONSOLE_ROLES, type ConsoleRole } from './roles.js';

/** What a console call asks of its caller; each call declares one in the gateway's access table. */
export const CONSOLE_PERMISSIONS = [
  'console.releases.read',
  'console.releases.change',
  'console.people.read',
  'console.people.change',
  'console.partners.read',
  'console.partners.change',
  'console.applications.read',
  'console.applications.change',
  'console.grants.read',
  'console.grants.change',
  'console.audit.read',
  'console.audit.settings',
  'console.import',
] as const;
/** A console permission. */
export type ConsolePermissionName = (typeof CONSOLE_PERMISSIONS)[number];

/** What each role holds (least privilege: a release manager holds releases and nothing else). */
export const ROLE_PERMISSIONS: Readonly<Record<ConsoleRole, readonly ConsolePermissionName[]>> = {
  platformAdmin: CONSOLE_PERMISSIONS,
  releaseManager: ['console.releases.read', 'console.releases.change'],
  // Support helps the people of its partner and reads their audit; never platform administrators (issue 52).
  support: ['console.people.read', 'console.people.change', 'console.audit.read'],
  // A customer administrator helps the members of its customers only.
  customerAdmin: ['console.people.read', 'console.people.change'],
};

/** One grant: a role, and where it applies (support: a partner; customer administrator: one customer). */
export const consoleGrantSchema = z.object({
  role: z.enum(CONSOLE_ROLES),
  partnerId: z.nullable(z.string()),
  customerId: z.nullable(z.string()),
});
/** One console grant. */
export type ConsoleGrant = z.infer<typeof consoleGrantSchema>;

/**
 * `ConsoleAccess` (any signed-in account): the caller's grants and the permissions they give; empty for everyone
 * else. `secondFactorReady` is false when the account holds grants but neither a second factor nor a passkey (the
 * console then refuses every call until one is set up).
 */
export const consoleAccessSchema = z.object({
  grants: z.array(consoleGrantSchema),
  permissions: z.array(z.enum(CONSOLE_PERMISSIONS)),
  secondFactorReady: z.boolean(),
});
/** Answer of `ConsoleAccess`. */
export type ConsoleAccess = z.infer<typeof consoleAccessSchema>;

const remoteId = z.enum(REMOTE_IDS);
const reason = z.optional(z.string().check(z.maxLength(500)));
const versionName = z.string().check(z.minLength(1), z.maxLength(64));

/** One published version of a remote, as the releases page lists it. */
export const releaseVersionSchema = z.object({
  version: z.string(),
  /** ISO 8601. */
  publishedAt: z.string(),
  /** Who published it: a console user's username, or `cli:<os user>`; null when not recorded (older versions). */
  publishedBy: z.nullable(z.string()),
  /** When and by whom it was last made the active version; null when it never was. */
  activatedAt: z.nullable(z.string()),
  activatedBy: z.nullable(z.string()),
  /** Bytes on the wire (Brotli) of its JS and CSS files. */
  bytesOnWire: z.number(),
  /** The shared versions its federation manifest requires, by package (`react`, `shared-contracts`, …). */
  requires: z.record(z.string(), z.string()),
});
/** One published version. */
export type ReleaseVersion = z.infer<typeof releaseVersionSchema>;

/** The canary guard's settings of one remote (defaults: 100 page loads, above 2 % and above twice the active's). */
export const canaryGuardSchema = z.object({
  /** Page loads of the canary before the guard judges it. */
  minPageLoads: z.number().check(z.int(), z.minimum(1), z.maximum(1_000_000)),
  /** The canary's failure rate must exceed this (0–1) … */
  minFailureRate: z.number().check(z.minimum(0), z.maximum(1)),
  /** … and `ratio` times the active version's, to end it. */
  ratio: z.number().check(z.minimum(1), z.maximum(100)),
});
/** Canary guard settings. */
export type CanaryGuard = z.infer<typeof canaryGuardSchema>;

/** One remote on the releases page. */
export const remoteReleaseSchema = z.object({
  id: remoteId,
  active: z.nullable(z.string()),
  canary: z.nullable(
    z.object({
      version: z.string(),
      percent: z.number().check(z.int(), z.minimum(1), z.maximum(99)),
      startedAt: z.nullable(z.string()),
      startedBy: z.nullable(z.string()),
    }),
  ),
  guard: canaryGuardSchema,
  /** Newest first. */
  versions: z.array(releaseVersionSchema),
});
/** One remote's releases. */
export type RemoteRelease = z.infer<typeof remoteReleaseSchema>;

/** `Releases` (GET): every remote's releases. */
export const releasesViewSchema = z.object({ remotes: z.array(remoteReleaseSchema) });
/** Answer of `Releases`. */
export type ReleasesView = z.infer<typeof releasesViewSchema>;

/** The windows health is shown over. */
export const HEALTH_WINDOWS = ['15m', '1h', '24h'] as const;
/** A health window. */
export type HealthWindow = (typeof HEALTH_WINDOWS)[number];

/** `ReleaseHealth` (GET, `?remote=&window=`). */
export const releaseHealthRequestSchema = z.object({ remote: remoteId, window: z.enum(HEALTH_WINDOWS) });
/** Request of `ReleaseHealth`. */
export type ReleaseHealthRequest = z.infer<typeof releaseHealthRequestSchema>;

/** One version's health over a window, counted over every replica. */
export const versionHealthSchema = z.object({
  version: z.string(),
  role: z.enum(['active', 'canary', 'earlier']),
  pageLoads: z.number(),
  loadFailures: z.number(),
  clientErrors: z.number(),
  /** (load failures + client errors) / page loads; null without page loads. */
  failureRate: z.nullable(z.number()),
});
/** One version's health. */
export type VersionHealth = z.infer<typeof versionHealthSchema>;

/** Answer of `ReleaseHealth`: the active version first, then the canary, then earlier versions seen in the window. */
export const releaseHealthSchema = z.object({
  remote: remoteId,
  window: z.enum(HEALTH_WINDOWS),
  versions: z.array(versionHealthSchema),
});
/** Answer of `ReleaseHealth`. */
export type ReleaseHealth = z.infer<typeof releaseHealthSchema>;

/** What a release event records. */
export const RELEASE_ACTIONS = [
  'published',
  'promoted',
  'canaryStarted',
  'canaryChanged',
  'canaryEnded',
  'canaryEndedByGuard',
  'rolledBack',
  'guardChanged',
] as const;
/** A release action. */
export type ReleaseAction = (typeof RELEASE_ACTIONS)[number];

/** A calendar day, `YYYY-MM-DD` (the date picker's value). */
const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));

/** `ReleaseHistory` (GET, `?remote=&from=&to=`): days inclusive, in UTC. */
export const releaseHistoryRequestSchema = z.object({
  remote: z.optional(remoteId),
  from: z.optional(day),
  to: z.optional(day),
});
/** Request of `ReleaseHistory`. */
export type ReleaseHistoryRequest = z.infer<typeof releaseHistoryRequestSchema>;

/** One event of a remote's history, newest first in the answer. */
export const releaseEventSchema = z.object({
  id: z.string(),
  /** ISO 8601. */
  at: z.string(),
  remote: remoteId,
  action: z.enum(RELEASE_ACTIONS),
  version: z.nullable(z.string()),
  percent: z.nullable(z.number()),
  /** A console user's username, `cli:<os user>`, or `guard`. */
  actor: z.string(),
  reason: z.nullable(z.string()),
  /** The guard's figures when it ended a canary (page loads, failures, rates of canary and active). */
  figures: z.nullable(z.record(z.string(), z.number())),
});
/** One release event. */
export type ReleaseEvent = z.infer<typeof releaseEventSchema>;

/** Answer of `ReleaseHistory`. */
export const releaseHistorySchema = z.object({ events: z.array(releaseEventSchema) });
/** Answer of `ReleaseHistory`. */
export type ReleaseHistory = z.infer<typeof releaseHistorySchema>;

/** `StartCanary` (also changes a running canary's version or share). */
export const startCanaryRequestSchema = z.object({
  remote: remoteId,
  version: versionName,
  percent: z.number().check(z.int(), z.minimum(1), z.maximum(99)),
  reason,
});
/** `EndCanary`. */
export const endCanaryRequestSchema = z.object({ remote: remoteId, reason });
/** `PromoteRelease`: makes a published version the active one (ends a canary of it). */
export const promoteReleaseRequestSchema = z.object({ remote: remoteId, version: versionName, reason });
/** `RollBackRelease`: back to the previously active version; ends any canary. */
export const rollBackReleaseRequestSchema = z.object({ remote: remoteId, reason });
/** `SetCanaryGuard`. */
export const setCanaryGuardRequestSchema = z.object({
  remote: remoteId,
  minPageLoads: canaryGuardSchema.shape.minPageLoads,
  minFailureRate: canaryGuardSchema.shape.minFailureRate,
  ratio: canaryGuardSchema.shape.ratio,
  reason,
});
export type StartCanaryRequest = z.infer<typeof startCanaryRequestSchema>;
export type EndCanaryRequest = z.infer<typeof endCanaryRequestSchema>;
export type PromoteReleaseRequest = z.infer<typeof promoteReleaseRequestSchema>;
export type RollBackReleaseRequest = z.infer<typeof rollBackReleaseRequestSchema>;
export type SetCanaryGuardRequest = z.infer<typeof setCanaryGuardRequestSchema>;

/** The console's calls (all under `/api/account/`, declared in the gateway's access table). */
export const CONSOLE_CALLS = [
  'ConsoleAccess',
  'Releases',
  'ReleaseHealth',
  'ReleaseHistory',
  'StartCanary',
  'EndCanary',
  'PromoteRelease',
  'RollBackRelease',
  'SetCanaryGuard',
  // People (issue 52): support for its partner, customer administrators for their customers' members.
  'ConsolePeople',
  'ConsolePerson',
  'DisablePerson',
  'EnablePerson',
  'EndPersonSessions',
  'ResetPersonSecondFactor',
  'SendPersonPasswordReset',
  'RequirePersonTwoStep',
  'ClearPersonThrottle',
  'AddPersonMembership',
  'RemovePersonMembership',
  // Partners (platform administrators).
  'ConsolePartners',
  'ConsolePartner',
  'UpdatePartner',
  'UploadPartnerLogo',
  // Applications (OIDC clients) and upstream providers (platform administrators).
  'ConsoleApplications',
  'CreateApplication',
  'UpdateApplication',
  'DisableApplication',
  'RotateApplicationSecret',
  'ConsoleUpstreams',
  'CreateUpstream',
  'UpdateUpstream',
  'DisableUpstream',
  // Grants (platform administrators).
  'ConsoleGrants',
  'GrantConsoleRole',
  'WithdrawConsoleRole',
  // Audit search, export and retention.
  'ConsoleAudit',
  'ConsoleAuditExport',
  'AuditRetention',
  'SetAuditRetention',
  // Bulk import of customers and memberships (platform administrators).
  'ImportCustomers',
] as const;
/** A console call's name. */
export type ConsoleCallName = (typeof CONSOLE_CALLS)[number];
export * from './grants.js';
export * from './partners.js';
export * from './applications.js';
export * from './people.js';
