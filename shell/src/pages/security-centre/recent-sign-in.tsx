import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SerializedError } from '@reduxjs/toolkit';
import { toSecureSignInPayload, type ApiError, type ConfirmItsYouAnswer } from 'shared-contracts';
import {
  ConfirmItsYouHost,
  getPasskeyAssertion,
  type AssertionOptionsJSON,
  type ConfirmItsYouActions,
  type ConfirmItsYouResult,
  type ConfirmItsYouStrings,
} from 'shared-contracts/account-ui';
import {
  useAssertionOptionsMutation,
  useConfirmItsYouMutation,
  useConfirmItsYouSecondFactorMutation,
  useConfirmItsYouViewMutation,
  useSignInAgainMutation,
} from 'shared-contracts/api';
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

/** A confirmation call's outcome as the dialog takes it: the answer, or the error it shows in the dialog. */
async function resultOf(
  call: PromiseLike<
    { data: ConfirmItsYouAnswer; error?: undefined } | { error: ApiError | SerializedError; data?: undefined }
  >,
): Promise<ConfirmItsYouResult> {
  const result = await call;
  return result.error ? { error: result.error } : { answer: result.data };
}

/** The dialog's texts in the page's language (the `confirmItsYou` object of the security centre's namespace). */
function useConfirmItsYouStrings(): ConfirmItsYouStrings {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  const keys = [
    'title',
    'why',
    'password',
    'continue',
    'cancel',
    'usePasskey',
    'secondFactorIntro',
    'authenticatorCode',
    'recoveryCode',
    'codeHint',
    'useRecoveryCode',
    'useAuthenticator',
    'signInAgainNeeded',
    'signInAgain',
  ] as const satisfies readonly (keyof ConfirmItsYouStrings)[];
  const strings = {} as Record<(typeof keys)[number], string>;
  for (const key of keys) strings[key] = t(`confirmItsYou.${key}`);
  return strings;
}

/**
 * Changes need a recent sign-in (S21, ADR 0036). A change refused for it opens "Confirm it's you" (issue 49, ADR
 * 0045): the password (and the second factor when the account has one) or a passkey renews the window in place and
 * the change is sent again, so nothing typed is lost and no session ends. Only an account the dialog cannot confirm
 * (no password and no passkey) is offered `SignInAgain` there. `recent` (the view's window) is kept for callers; the
 * dialog asks only when a change is refused, as Google's account pages do.
 */
export function RecentSignInProvider({ children }: { recent?: boolean; children: ReactNode }) {
  const strings = useConfirmItsYouStrings();
  const [view] = useConfirmItsYouViewMutation();
  const [confirmItsYou] = useConfirmItsYouMutation();
  const [confirmSecondFactor] = useConfirmItsYouSecondFactorMutation();
  const [assertionOptions] = useAssertionOptionsMutation();
  const [signInAgain] = useSignInAgainMutation();
  const actions = useMemo<ConfirmItsYouActions>(
    () => ({
      view: () => view().unwrap(),
      password: (password) => resultOf(confirmItsYou({ password })),
      secondFactor: (method, code) => resultOf(confirmSecondFactor({ method, code })),
      async passkey() {
        const options = (await assertionOptions().unwrap()) as AssertionOptionsJSON;
        const assertion = await getPasskeyAssertion(options);
        return resultOf(confirmItsYou({ passkey: toSecureSignInPayload(assertion) }));
      },
      async signInAgain() {
        const result = await signInAgain({ returnUrl: '/account/' });
        if ('data' in result && result.data) window.location.assign(result.data.redirect);
      },
    }),
    [view, confirmItsYou, confirmSecondFactor, assertionOptions, signInAgain],
  );
  const value = useMemo<RecentSignIn>(() => ({ check: (error) => isRecentSignInRequired(error) }), []);
  return (
    <RecentSignInContext.Provider value={value}>
      <ConfirmItsYouHost strings={strings} actions={actions} />
      {children}
    </RecentSignInContext.Provider>
  );
}
