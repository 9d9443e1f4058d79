import type { SerializedError } from '@reduxjs/toolkit';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
// By the package's name, not `../api/…`: the page's one API (a federation singleton) whose store holds these
// endpoints; a relative import would bundle a second copy of the API into this kit.
import { useDispatch } from 'react-redux';
import {
  navigateFull,
  requestCaptcha,
  useAssertionOptionsMutation,
  useConfirmItsYouMutation,
  useConfirmItsYouSecondFactorMutation,
  useConfirmItsYouSendCodeMutation,
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
  type ConfirmItsYouText,
} from './confirm-its-you-dialog.js';

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
 * password (behind the partner's captcha, then the second factor when the account has one: the authenticator app,
 * a texted code or a mailed PIN sent when the person presses Send, or a recovery code) or a passkey renews the window, and the refused call is
 * sent again with what was typed. No session ends and the page stays. Only an account the dialog cannot confirm is
 * offered `SignInAgain`, which comes back to `returnUrl`. The calls are those of `shared-contracts/api`.
 */
export function ConfirmItsYouHere({ namespace, returnUrl }: ConfirmItsYouHereProps) {
  const { t } = useTranslation(namespace);
  const dispatch = useDispatch();
  const [view] = useConfirmItsYouViewMutation();
  const [confirmItsYou] = useConfirmItsYouMutation();
  const [sendCode] = useConfirmItsYouSendCodeMutation();
  const [confirmSecondFactor] = useConfirmItsYouSecondFactorMutation();
  const [assertionOptions] = useAssertionOptionsMutation();
  const [signInAgain] = useSignInAgainMutation();
  const text = useCallback<ConfirmItsYouText>((key, values) => t(`confirmItsYou.${key}`, values), [t]);
  const actions = useMemo<ConfirmItsYouActions>(
    () => ({
      view: () => view().unwrap(),
      password: (password) => resultOf(confirmItsYou({ password })),
      async sendCode(method) {
        const result = await sendCode({ method });
        return result.error ? { error: result.error } : { sent: result.data };
      },
      captcha(provider, onSolved) {
        // The sign-in's own challenge (action `login`): the password here is guarded as there (ADR 0014).
        requestCaptcha(dispatch, { action: 'login', provider, onSolved });
      },
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
    [view, confirmItsYou, sendCode, confirmSecondFactor, assertionOptions, signInAgain, dispatch, returnUrl],
  );
  return <ConfirmItsYouHost text={text} actions={actions} />;
}
