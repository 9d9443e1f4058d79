import { ROLE_PERMISSIONS, type ConsoleGrant, type ConsolePermissionName } from 'shared-contracts/console';

/**
 * Whom a console caller may help (issue 52, ADR 0061), from the grants that give it the permission: a grant that
 * applies everywhere (a platform administrator) reaches everyone; support the accounts of its partner; a customer
 * administrator the members of its customer. Only a caller reaching everyone sees platform administrators.
 */
export interface PeopleScope {
  all: boolean;
  partnerIds: readonly string[];
  customerIds: readonly string[];
}

/** The scope `grants` give for `permission` (nobody without a grant holding it). */
export function peopleScopeOf(
  grants: readonly ConsoleGrant[],
  permission: ConsolePermissionName,
): PeopleScope {
  const holding = grants.filter((grant) => ROLE_PERMISSIONS[grant.role].includes(permission));
  const all = holding.some((grant) => grant.partnerId === null && grant.customerId === null);
  const partnerIds = holding.flatMap((g) =>
    g.customerId === null && g.partnerId !== null ? [g.partnerId] : [],
  );
  const customerIds = holding.flatMap((g) => (g.customerId !== null ? [g.customerId] : []));
  return { all, partnerIds: [...new Set(partnerIds)], customerIds: [...new Set(customerIds)] };
}

/** Whether the scope reaches an account of `partnerId` that is a member of `customerIds`. */
export function scopeReaches(
  scope: PeopleScope,
  person: { partnerId: string | null; customerIds: readonly string[]; platformAdmin: boolean },
): boolean {
  if (scope.all) return true;
  // Support never sees or changes a platform administrator; nor does a customer administrator.
  if (person.platformAdmin) return false;
  if (person.partnerId !== null && scope.partnerIds.includes(person.partnerId)) return true;
  return person.customerIds.some((id) => scope.customerIds.includes(id));
}

/** Whether the scope may change memberships of a customer (a customer administrator: only its own customers). */
export function scopeCoversCustomer(
  scope: PeopleScope,
  customer: { id: string; partnerId: string | null },
): boolean {
  if (scope.all) return true;
  if (customer.partnerId !== null && scope.partnerIds.includes(customer.partnerId)) return true;
  return scope.customerIds.includes(customer.id);
}
