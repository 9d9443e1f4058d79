import type { Store } from '../store/store.js';

/** The claims of an account for ID tokens and userinfo. */
export interface AccountClaims {
  sub: string;
  name: string;
  preferred_username: string;
  email?: string;
  roles: string[];
  /** The selected customer, once chosen. */
  customer?: string;
}

/** An account as oidc-provider's `findAccount` expects it. */
export interface Account {
  accountId: string;
  claims(): AccountClaims;
}

/**
 * Finds an account by id for the OIDC provider (`findAccount`). Disabled or unknown accounts give undefined, so
 * no token is issued for them.
 */
export async function findAccount(
  store: Pick<Store, 'users'>,
  accountId: string,
  customerId?: string,
): Promise<Account | undefined> {
  const user = await store.users.findById(accountId);
  if (!user || user.disabled) return undefined;
  return {
    accountId: user.id,
    claims: () => ({
      sub: user.id,
      name: user.displayName,
      preferred_username: user.username,
      ...(user.email ? { email: user.email } : {}),
      roles: [...user.roles],
      ...(customerId ? { customer: customerId } : {}),
    }),
  };
}

/** `findAccount` bound to a store. */
export function createAccountsService(store: Pick<Store, 'users'>) {
  return {
    findAccount: (accountId: string, customerId?: string) => findAccount(store, accountId, customerId),
  };
}
