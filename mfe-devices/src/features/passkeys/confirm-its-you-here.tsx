import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { SerializedError } from '@reduxjs/toolkit';
import {
  returnUrlOf,
  toSecureSignInPayload,
  withReturnUrl,
  type ApiError,
  type ConfirmItsYouAnswer,
} from 'shared-contracts';
import {
  ConfirmItsYouHost,
  getPasskeyAssertion,
  type AssertionOptionsJSON,
  type ConfirmItsYouActions,
  type ConfirmItsYouResult,
  type ConfirmItsYouStrings,
} from 'shared-contracts/account-ui';
import {
  navigateFull,
  useAssertionOptionsMutation,
  useConfirmItsYouMutation,
  useConfirmItsYouSecondFactorMutation,
  useConfirmItsYouViewMutation,
  useSignInAgainMutation,
} from 'shared-contracts/api';

const STRING_KEYS = [
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

/** A confirmation call's outcome as the dialog takes it: the answer, or the error it shows in the dialog. */
async function resultOf(
  call: PromiseLike<
    { data: ConfirmItsYouAnswer; error?: undefined } | { error: ApiError | SerializedError; data?: undefined }
  >,
): Promise<ConfirmItsYouResult> {
  const result = await call;
  return result.error ? { error: result.error } : { answer: result.data };
}

/**
 * "Confirm it's you" on the passkey page (issue 49, ADR 0045), as in the security centre: a change of this page
 * refused for a sign-in that is not recent (S21) opens the dialog; the password (then the second factor when the
 * account has one) or a passkey renews the window in place, and the refused call is sent again with what was typed.
 * No session ends and the page stays. Only an account the dialog cannot confirm is offered `SignInAgain`, which
 * comes back to this page with its returnUrl.
 */
export function ConfirmItsYouHere() {
  const { t } = useTranslation('mfe-devices');
  const [search] = useSearchParams();
  const here = withReturnUrl('/account/registerdevice', returnUrlOf(search));
  const [view] = useConfirmItsYouViewMutation();
  const [confirmItsYou] = useConfirmItsYouMutation();
  const [confirmSecondFactor] = useConfirmItsYouSecondFactorMutation();
  const [assertionOptions] = useAssertionOptionsMutation();
  const [signInAgain] = useSignInAgainMutation();
  const strings = {} as ConfirmItsYouStrings;
  for (const key of STRING_KEYS) strings[key] = t(`confirmItsYou.${key}`);
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
        const result = await signInAgain({ returnUrl: here });
        if ('data' in result && result.data) navigateFull(result.data.redirect);
      },
    }),
    [view, confirmItsYou, confirmSecondFactor, assertionOptions, signInAgain, here],
  );
  return <ConfirmItsYouHost strings={strings} actions={actions} />;
}
