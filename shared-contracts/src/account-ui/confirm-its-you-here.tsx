import type { SerializedError } from '@reduxjs/toolkit';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
// By the package's name, not `../api/…`: the page's one API (a federation singleton) whose store holds these
// endpoints; a relative import would bundle a second copy of the API into this kit.
import {
  navigateFull,
  useAssertionOptionsMutation,
  useConfirmItsYouMutation,
  useConfirmItsYouSecondFactorMutation,
  useConfirmItsYouViewMutation,
  useSignInAgainMutation,
} from 'shared-contracts/api';
import type { ApiError } from '../protocol.js';
import type { ConfirmItsYouAnswer } from '../security-centre.schema.js';
import { toSecureSignInPayload } from '../webauthn.schema.js';
import { getPasskeyAssertion, type AssertionOptionsJSON } from './confirm-its-you.js';
import {
  ConfirmItsYouHost,
  type ConfirmItsYouActions,
  type ConfirmItsYouResult,
  type ConfirmItsYouStrings,
} from './confirm-its-you-dialog.js';

/** The keys of the `confirmItsYou` object every page mounting the dialog has in its namespace (five locales). */
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

/** Props of {@link ConfirmItsYouHere}. */
export interface ConfirmItsYouHereProps {
  /** The page's i18next namespace; its `confirmItsYou` object holds the dialog's texts (`why` says what for). */
  namespace: string;
  /** Where `SignInAgain` (the way out for an account the dialog cannot confirm) comes back to: this page. */
  returnUrl: string;
}

/**
 * "Confirm it's you" on any signed-in page (issue 49, ADR 0045), mounted once by the page: a change of the page sent
 * through {@link confirmedChange} and refused with 403 `recentSignInRequired` (S21) opens the dialog in place; the
 * password (then the second factor when the account has one) or a passkey renews the window, and the refused call is
 * sent again with what was typed. No session ends and the page stays. Only an account the dialog cannot confirm is
 * offered `SignInAgain`, which comes back to `returnUrl`. The calls are those of `shared-contracts/api`.
 */
export function ConfirmItsYouHere({ namespace, returnUrl }: ConfirmItsYouHereProps) {
  const { t } = useTranslation(namespace);
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
        const result = await signInAgain({ returnUrl });
        if ('data' in result && result.data) navigateFull(result.data.redirect);
      },
    }),
    [view, confirmItsYou, confirmSecondFactor, assertionOptions, signInAgain, returnUrl],
  );
  return <ConfirmItsYouHost strings={strings} actions={actions} />;
}
