import type { CurrentUser } from 'shared-contracts';
import { useUserQuery } from 'shared-contracts/api';

/**
 * The name the header's account menu shows (issue 49), or undefined for nobody signed in (a pending sign-in is not
 * one yet). `guarded` is this navigation's user (the guard's loader); the User query then follows what changed
 * since, such as a display name saved in the security centre (UpdateProfile invalidates `User`), without waiting
 * for the next navigation, as the signed-in card does. Not subscribed for a visitor who is not signed in, so the
 * sign-in pages ask `User` no more often than before.
 */
export function useSignedInName(guarded: CurrentUser | undefined): string | undefined {
  const { data: live } = useUserQuery(undefined, { skip: !guarded?.isAuthenticated });
  if (!guarded?.isAuthenticated) return undefined;
  const current = live?.isAuthenticated ? live : guarded;
  return current.displayName ?? current.userName ?? '';
}
