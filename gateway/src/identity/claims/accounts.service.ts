import type { CustomerClaim } from 'shared-contracts';
import type { MemberCustomer } from '../../store/customer.repository.js';
import type { Store } from '../../store/store.js';

/** The claims of an account for ID tokens and userinfo. */
export interface AccountClaims {
  sub: string;
  name: string;
  preferred_username: string;
  email?: string;
  /** The user's roles in the selected customer; without one, the user's own roles. */
  roles: string[];
  /** The customer the user works in: the one chosen at sign-in, or the only one the user belongs to. */
  customer?: CustomerClaim;
}

/** An account as oidc-provider's `findAccount` expects it. */
export interface Account {
  accountId: string;
  claims(): AccountClaims;
}

/**
 * Finds an account by id for the OIDC provider (`findAccount`). Disabled or unknown accounts give undefined, so
 * no token is issued for them. With `customerId` (the customer of the grant) the user must still belong to that
 * customer, else undefined as well: a token for a customer is never issued to someone who is no longer its member,
 * nor for a customer other than the chosen one (S37). Without it, a user with exactly one customer gets that one.
 */
export async function findAccount(
  store: Pick<Store, 'users' | 'customers'>,
  accountId: string,
  customerId?: string,
): Promise<Account | undefined> {
  const user = await store.users.findById(accountId);
  if (!user || user.disabled) return undefined;
  let membership: MemberCustomer | undefined;
  if (customerId) {
    membership = await store.customers.membershipOf(user.id, customerId);
    if (!membership) return undefined;
  } else {
    // Counted first: a member of thousands of customers must not have them all read for every token.
    if ((await store.customers.countCustomersOf(user.id)) === 1)
      membership = (await store.customers.customersOf(user.id))[0];
  }
  return {
    accountId: user.id,
    claims: () => ({
      sub: user.id,
      name: user.displayName,
      preferred_username: user.username,
      ...(user.email ? { email: user.email } : {}),
      roles: [...(membership ? membership.roles : user.roles)],
      ...(membership ? { customer: { id: membership.id, name: membership.name } } : {}),
    }),
  };
}

/** `findAccount` bound to a store. */
export function createAccountsService(store: Pick<Store, 'users' | 'customers'>) {
  return {
    findAccount: (accountId: string, customerId?: string) => findAccount(store, accountId, customerId),
  };
}
