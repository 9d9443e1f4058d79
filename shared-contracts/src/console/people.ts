import { z } from 'zod/mini';
import { sessionNetworkSchema } from '../security-centre.schema.js';

/**
 * The console's People section (issue 52, ADR 0061): support and customer administrators help people. The
 * requests and answers the gateway (`http/console-people.router.ts`) and the console remote agree on. Who may see
 * whom is the gateway's: support its partner's people but never a platform administrator, a customer administrator
 * the members of its customers, a platform administrator everyone.
 */

/** The HR roles of SPEC.md §3 a membership carries (the gateway checks this list against its own). */
export const PERSON_ROLES = [
  'EMPLOYEE',
  'MANAGER',
  'VENDOR_SUPPORT',
  'VENDOR_OPERATIONS',
  'VENDOR_PARTNER',
  'ADMIN',
  'HR_ADMIN',
] as const;
/** A membership's role. */
export type PersonRole = (typeof PERSON_ROLES)[number];

/** Results per page of `ConsolePeople`. */
export const PEOPLE_PAGE_SIZE = 20;

const id = z.string().check(z.minLength(1), z.maxLength(200));
/** Every change of a person needs a reason: it is audited and named in the console's history. */
const reason = z.string().check(z.trim(), z.minLength(1), z.maxLength(500));

/** `ConsolePeople` (GET, `?query=&customerId=&page=`): by username, e-mail, display name or customer name. */
export const consolePeopleRequestSchema = z.object({
  query: z.optional(z.string().check(z.maxLength(200))),
  customerId: z.optional(id),
  /** 1-based; a query string's digits. */
  page: z.optional(z.string().check(z.regex(/^[1-9]\d{0,5}$/))),
});
/** Request of `ConsolePeople`. */
export type ConsolePeopleRequest = z.infer<typeof consolePeopleRequestSchema>;

/** A customer as a person's membership, with the roles the person holds in it. */
export const personCustomerSchema = z.object({
  id: z.string(),
  name: z.string(),
  roles: z.array(z.enum(PERSON_ROLES)),
  /** Whether the caller may change this membership (a customer administrator: only its own customers). */
  canChange: z.boolean(),
});
/** One of a person's customers. */
export type PersonCustomer = z.infer<typeof personCustomerSchema>;

/** One row of the search. */
export const personSummarySchema = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  email: z.nullable(z.string()),
  disabled: z.boolean(),
  /** The customers of the person the caller may see. */
  customers: z.array(z.object({ id: z.string(), name: z.string() })),
});
/** One person in the search's results. */
export type PersonSummary = z.infer<typeof personSummarySchema>;

/** Answer of `ConsolePeople`: one page, by username. */
export const consolePeopleSchema = z.object({
  people: z.array(personSummarySchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
/** Answer of `ConsolePeople`. */
export type ConsolePeople = z.infer<typeof consolePeopleSchema>;

/** `ConsolePerson` (GET, `?id=`). */
export const consolePersonRequestSchema = z.object({ id });
/** Request of `ConsolePerson`. */
export type ConsolePersonRequest = z.infer<typeof consolePersonRequestSchema>;

/** A way to sign in, by kind only: never a secret, never a phone number. */
export const SIGN_IN_METHOD_KINDS = ['password', 'authenticator', 'sms', 'pin', 'recoveryCodes'] as const;
/** A sign-in method's kind. */
export type SignInMethodKind = (typeof SIGN_IN_METHOD_KINDS)[number];

/** Everything a person's page shows. Times are ISO 8601. */
export const consolePersonSchema = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  email: z.nullable(z.string()),
  account: z.object({
    disabled: z.boolean(),
    /** When the password was last set; null without a local password or when never recorded. */
    passwordChangedAt: z.nullable(z.string()),
    /** The next sign-in must change the password (expired, or set to expire). */
    mustChangePassword: z.boolean(),
    /** Two-step verification required of this account (by the account itself or by its partner). */
    twoStepRequired: z.boolean(),
    /** A vendor account signs in through its provider only (ADR 0041). */
    vendor: z.boolean(),
  }),
  signInMethods: z.array(z.enum(SIGN_IN_METHOD_KINDS)),
  passkeys: z.array(
    z.object({ name: z.string(), createdAt: z.string(), lastUsedAt: z.nullable(z.string()) }),
  ),
  sessions: z.array(
    z.object({
      createdAt: z.string(),
      lastSeenAt: z.string(),
      /** The network read coarsely, never the full address. */
      network: z.nullable(sessionNetworkSchema),
      userAgent: z.nullable(z.string()),
    }),
  ),
  rememberedBrowsers: z.array(z.object({ createdAt: z.string(), lastUsedAt: z.nullable(z.string()) })),
  linkedAccounts: z.array(z.object({ provider: z.string(), linkedAt: z.string() })),
  customers: z.array(personCustomerSchema),
  /** The newest sign-in events first (kind only: `login.succeeded`, `login.failed`, …). */
  recentEvents: z.array(z.object({ at: z.string(), kind: z.string() })),
});
/** Answer of `ConsolePerson` and of every change of a person (the person as they now are; see `RemovePersonMembership`). */
export type ConsolePerson = z.infer<typeof consolePersonSchema>;

/**
 * DisablePerson, EnablePerson, EndPersonSessions, ResetPersonSecondFactor, SendPersonPasswordReset,
 * RequirePersonTwoStep, ClearPersonThrottle: the person and the reason.
 */
export const personChangeRequestSchema = z.object({ id, reason });
/** Request of a change of a person. */
export type PersonChangeRequest = z.infer<typeof personChangeRequestSchema>;

/** `AddPersonMembership`: a customer and its roles (at least one); an existing membership's roles are replaced. */
export const addPersonMembershipRequestSchema = z.object({
  id,
  customerId: id,
  roles: z.array(z.enum(PERSON_ROLES)).check(z.minLength(1), z.maxLength(PERSON_ROLES.length)),
  reason,
});
/** Request of `AddPersonMembership`. */
export type AddPersonMembershipRequest = z.infer<typeof addPersonMembershipRequestSchema>;

/**
 * `RemovePersonMembership`; answered with the person as they now are, or null when the removal took them out of the
 * caller's reach (a customer administrator removing the membership of its own customer).
 */
export const removePersonMembershipRequestSchema = z.object({ id, customerId: id, reason });
/** Request of `RemovePersonMembership`. */
export type RemovePersonMembershipRequest = z.infer<typeof removePersonMembershipRequestSchema>;
