/** Roles of SPEC.md §3, by number (only the gateway uses them: moved from shared-contracts, issue 42). */
export const ROLES = {
  EMPLOYEE: 1,
  MANAGER: 2,
  VENDOR_SUPPORT: 3,
  VENDOR_OPERATIONS: 4,
  VENDOR_PARTNER: 5,
  ADMIN: 6,
  HR_ADMIN: 7,
} as const;

/** A role's name as in SPEC.md §3. */
export type RoleName = keyof typeof ROLES;
/** A role's number as in SPEC.md §3. */
export type RoleNumber = (typeof ROLES)[RoleName];

const byNumber = new Map<number, RoleName>(
  (Object.entries(ROLES) as [RoleName, RoleNumber][]).map(([name, value]) => [value, name]),
);

/** Roles that make a user a vendor (SPEC.md §6). */
export const VENDOR_ROLES: readonly RoleName[] = ['VENDOR_SUPPORT', 'VENDOR_OPERATIONS', 'VENDOR_PARTNER'];

/**
 * Reads a role given as its number (1–7, or its digits as text) or its name (any case); undefined when unknown.
 */
export function parseRole(value: unknown): RoleName | undefined {
  if (typeof value === 'number') return byNumber.get(value);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return byNumber.get(Number(text));
  const upper = text.toUpperCase();
  return upper in ROLES ? (upper as RoleName) : undefined;
}

/** True when any of the roles is a vendor role. */
export function isVendor(roles: readonly RoleName[]): boolean {
  return roles.some((role) => VENDOR_ROLES.includes(role));
}
