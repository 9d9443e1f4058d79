import { returnUrlOf } from './return-url.js';
import { z } from 'zod';

/** Answer of the `User` call (SPEC.md §3 "current user"). */
export const currentUserSchema = z.object({
  isAuthenticated: z.boolean(),
  /** Present when authenticated. */
  subject: z.string().optional(),
  userName: z.string().optional(),
  displayName: z.string().optional(),
  email: z.string().optional(),
  roles: z.array(z.string()).optional(),
  /** The selected customer (tenant), once chosen. */
  customerId: z.string().optional(),
  /**
   * While a sign-in is pending (not authenticated yet): the route path of the step it waits at, e.g.
   * `/account/select`. The guard lets the user reach that page and no other non-anonymous one.
   */
  signInStep: z.string().optional(),
});
/** Answer of the `User` call. */
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** The anonymous user, as `User` answers without a session. */
export const ANONYMOUS_USER: CurrentUser = { isAuthenticated: false };

/** Query of calls that take a returnUrl (SPEC.md §2: also spelled ReturnUrl; default "/"). */
export const returnUrlQuerySchema = z
  .object({ returnUrl: z.string().max(2048).optional(), ReturnUrl: z.string().max(2048).optional() })
  .transform((q) => ({ returnUrl: returnUrlOf(q) }));
/** Query of calls that take a returnUrl. */
export type ReturnUrlQuery = z.infer<typeof returnUrlQuerySchema>;

/**
 * One application a signed-in person can go on to (the `Applications` call, not in SPEC.md §7: ADR 0017): a
 * registered client's name and the address where it starts its own sign-in.
 */
export const applicationSchema = z.object({ name: z.string(), url: z.string() });
/** One entry of the `Applications` answer. */
export type Application = z.infer<typeof applicationSchema>;
