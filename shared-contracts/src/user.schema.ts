import { returnUrlOf } from './return-url.js';
import { z } from 'zod/mini';

/** Answer of the `User` call (SPEC.md §3 "current user"). */
export const currentUserSchema = z.object({
  isAuthenticated: z.boolean(),
  /** Present when authenticated. */
  subject: z.optional(z.string()),
  userName: z.optional(z.string()),
  displayName: z.optional(z.string()),
  email: z.optional(z.string()),
  roles: z.optional(z.array(z.string())),
  /** The selected customer (tenant), once chosen. */
  customerId: z.optional(z.string()),
  /**
   * While a sign-in is pending (not authenticated yet): the route path of the step it waits at, e.g.
   * `/account/select`. The guard lets the user reach that page and no other non-anonymous one.
   */
  signInStep: z.optional(z.string()),
});
/** Answer of the `User` call. */
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** The anonymous user, as `User` answers without a session. */
export const ANONYMOUS_USER: CurrentUser = { isAuthenticated: false };

/** Query of calls that take a returnUrl (SPEC.md §2: also spelled ReturnUrl; default "/"). */
export const returnUrlQuerySchema = z.pipe(
  z.object({
    returnUrl: z.optional(z.string().check(z.maxLength(2048))),
    ReturnUrl: z.optional(z.string().check(z.maxLength(2048))),
  }),
  z.transform((q) => ({ returnUrl: returnUrlOf(q) })),
);
/** Query of calls that take a returnUrl. */
export type ReturnUrlQuery = z.infer<typeof returnUrlQuerySchema>;

/**
 * One application a signed-in person can go on to (the `Applications` call, not in SPEC.md §7: ADR 0017): a
 * registered client's name and the address where it starts its own sign-in.
 */
export const applicationSchema = z.object({ name: z.string(), url: z.string() });
/** One entry of the `Applications` answer. */
export type Application = z.infer<typeof applicationSchema>;
