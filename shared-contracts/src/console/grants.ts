import { z } from 'zod/mini';
import { CONSOLE_ROLES } from './roles.js';

/**
 * The console's grants page (issue 52, ADR 0063): `ConsoleGrants` lists every console grant; `GrantConsoleRole` and
 * `WithdrawConsoleRole` change one, through the one grants service the admin CLI uses too.
 */

/** One grant as the grants page lists it. */
export const listedGrantSchema = z.object({
  username: z.string(),
  role: z.enum(CONSOLE_ROLES),
  partnerId: z.nullable(z.string()),
  customerId: z.nullable(z.string()),
  /** A username, or `cli:<os user>`. */
  grantedBy: z.string(),
  /** ISO 8601. */
  grantedAt: z.string(),
});
/** One listed grant. */
export type ListedGrant = z.infer<typeof listedGrantSchema>;

/** Answer of `ConsoleGrants` (and of a grant or a withdrawal: the grants as they now are). */
export const consoleGrantsSchema = z.object({ grants: z.array(listedGrantSchema) });
/** The grants page's list. */
export type ConsoleGrants = z.infer<typeof consoleGrantsSchema>;

const optionalId = z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(64))));

/** Request of `GrantConsoleRole` and `WithdrawConsoleRole`: whose grant, which role, where, and why. */
export const consoleGrantChangeRequestSchema = z.object({
  username: z.string().check(z.trim(), z.minLength(1), z.maxLength(256)),
  role: z.enum(CONSOLE_ROLES),
  partnerId: optionalId,
  customerId: optionalId,
  reason: z.optional(z.string().check(z.maxLength(500))),
});
/** Request of `GrantConsoleRole` / `WithdrawConsoleRole`. */
export type ConsoleGrantChangeRequest = z.infer<typeof consoleGrantChangeRequestSchema>;
