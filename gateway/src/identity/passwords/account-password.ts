import type { Store } from '../../store/store.js';
import type { User } from '../../store/user.repository.js';
import { hashPassword } from './passwords.service.js';

/** What {@link setAccountPassword} needs: the store, the time, and the OIDC side's revocation. */
export interface AccountPasswordDeps {
  store: Pick<Store, 'users' | 'oneTimeTokens' | 'audit' | 'passwordPolicies'>;
  now: () => number;
  /** Ends the account's OIDC sessions, grants, codes and refresh tokens (S15); absent where there is no provider. */
  revokeOidc?: ((accountId: string) => Promise<unknown>) | undefined;
}

/** How the password came to be set, for the audit trail (`password.<how>`). */
export type PasswordChange = 'reset' | 'changed-expired' | 'changed' | 'set-by-admin';

/**
 * The one way a password is set (issue 39): the reset link, the expired-password page and `admin users
 * set-password` all come here, so none of them can leave something behind. The new hash comes with a new security
 * stamp, which ends every gateway session of the account on every replica, every remembered or known browser, and
 * every link made with the old password (ADR 0018); the partner's maximum age applies; every unused reset link and
 * one-time sign-in code dies; the OIDC sessions, grants and refresh tokens are revoked (S15); the audit records it.
 * Whatever the caller tells the user (the "password changed" mail) comes after.
 */
export async function setAccountPassword(
  deps: AccountPasswordDeps,
  user: User,
  password: string,
  input: { how: PasswordChange; ip: string | null },
): Promise<void> {
  const { store, now } = deps;
  const policy = user.partnerId ? await store.passwordPolicies.find(user.partnerId) : undefined;
  const maxAgeDays = policy?.maxAgeDays ?? 0;
  await store.users.update(user.id, {
    passwordHash: await hashPassword(password),
    passwordExpiresAt: maxAgeDays > 0 ? now() + maxAgeDays * 86_400_000 : null,
  });
  await store.oneTimeTokens.revokeAll(user.id, 'password-reset');
  await store.oneTimeTokens.revokeAll(user.id, 'sign-in');
  await deps.revokeOidc?.(user.id);
  await store.audit.record({
    at: now(),
    kind: `password.${input.how}`,
    userId: user.id,
    ip: input.ip,
    data: {},
  });
}
