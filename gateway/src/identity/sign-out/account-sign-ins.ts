import type { Store } from '../../store/store.js';

/**
 * Ends everything an account is signed in with, at once (ADR 0006): a new security stamp ends every site session on
 * every replica (each is read as signed out from its next request), then every OIDC session is ended as Logout ends
 * one — the applications that registered a back-channel URI are told — and every grant with its refresh tokens,
 * offline ones included. The one place behind `admin sessions revoke`, `admin users disable` (S29) and the removal of
 * a provider (its accounts). Answers what the OIDC side reported.
 */
export async function endEverySignInOfAccount<T>(
  deps: {
    store: Pick<Store, 'users'>;
    /**
     * Ends every OIDC session with back-channel logout and every grant (`revokeOidcArtefactsOfAccount` with a
     * provider; the server's `OidcMount.revokeAccount`). Absent where there is no provider.
     */
    revokeOidc?: ((accountId: string) => Promise<T>) | undefined;
  },
  userId: string,
): Promise<T | undefined> {
  await deps.store.users.rotateSecurityStamp(userId);
  return deps.revokeOidc ? await deps.revokeOidc(userId) : undefined;
}
