import { createContext, useContext, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { needsRecentSignIn, SignInAgain } from 'shared-contracts/ui';
import { useSignInAgainMutation } from './security-centre.api';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

interface RecentSignIn {
  /** Looks at a change's error: true (and the "sign in again" notice shows) when it needs a recent sign-in. */
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
 * Changes need a recent sign-in (S21, ADR 0036). Shows "sign in again" up front when the view says the sign-in is
 * not recent, or as soon as a change was refused for it; the button ends this session and goes to the sign-in
 * page, which comes back here.
 */
export function RecentSignInProvider({ recent, children }: { recent: boolean; children: ReactNode }) {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  const [refused, setRefused] = useState(false);
  const [signInAgain, signingIn] = useSignInAgainMutation();
  const value: RecentSignIn = {
    check(error) {
      const needed = isRecentSignInRequired(error);
      if (needed) setRefused(true);
      return needed;
    },
  };
  const go = async () => {
    const result = await signInAgain({ returnUrl: '/account/' });
    if ('data' in result && result.data) window.location.assign(result.data.redirect);
  };
  return (
    <RecentSignInContext.Provider value={value}>
      {!recent || refused ? (
        <SignInAgain
          message={t('recent.needed')}
          label={t('recent.signInAgain')}
          loading={signingIn.isLoading}
          urgent={refused}
          onSignInAgain={() => void go()}
        />
      ) : null}
      {children}
    </RecentSignInContext.Provider>
  );
}
