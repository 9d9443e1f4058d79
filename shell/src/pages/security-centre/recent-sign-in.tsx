import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { ConfirmItsYouHere } from 'shared-contracts/account-ui';
import { needsRecentSignIn } from 'shared-contracts/ui';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

interface RecentSignIn {
  /**
   * Looks at a change's error: true when it was refused for a sign-in that is not recent (S21). The change's own
   * call has already asked "Confirm it's you" by then (ADR 0045); an error that reaches a section means the dialog
   * was cancelled, and the section's card shows that in its own words.
   */
  check(error: unknown): boolean;
}

const RecentSignInContext = createContext<RecentSignIn>({ check: () => false });

/** Whether an error is the server's 403 `recentSignInRequired` (or the older 400 `reauthenticationRequired`). */
export const isRecentSignInRequired = needsRecentSignIn;

/** The recent-sign-in check of the sections. */
export function useRecentSignIn(): RecentSignIn {
  return useContext(RecentSignInContext);
}

/**
 * Changes need a recent sign-in (S21, ADR 0036). A change refused for it opens "Confirm it's you" (issue 49, ADR
 * 0045): the password (and the second factor when the account has one) or a passkey renews the window in place and
 * the change is sent again, so nothing typed is lost and no session ends. Only an account the dialog cannot confirm
 * (no password and no passkey) is offered `SignInAgain` there. `recent` (the view's window) is kept for callers; the
 * dialog asks only when a change is refused, as Google's account pages do.
 */
export function RecentSignInProvider({ children }: { recent?: boolean; children: ReactNode }) {
  const value = useMemo<RecentSignIn>(() => ({ check: (error) => isRecentSignInRequired(error) }), []);
  return (
    <RecentSignInContext.Provider value={value}>
      <ConfirmItsYouHere namespace={SECURITY_CENTRE_NS} returnUrl="/account/" />
      {children}
    </RecentSignInContext.Provider>
  );
}
