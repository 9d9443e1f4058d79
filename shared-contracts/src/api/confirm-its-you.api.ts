import {
  confirmItsYouAnswerSchema,
  confirmItsYouViewSchema,
  type ConfirmItsYouAnswer,
  type ConfirmItsYouRequest,
  type ConfirmItsYouSecondFactorRequest,
  type ConfirmItsYouView,
} from '../security-centre.schema.js';
import { baseApi } from './base-api.js';

/**
 * The calls of "Confirm it's you" (issue 49, ADR 0045), in one place because two pages mount its dialog: the shell's
 * security centre and mfe-devices' passkey page. Each page builds the dialog's actions from these hooks; the
 * broker and the dialog are in `shared-contracts/account-ui`, which cannot hold them (it would carry a second copy
 * of this API).
 */
export const confirmItsYouApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `ConfirmItsYouView`: what the dialog may ask this account for (asked afresh each time it opens). */
    confirmItsYouView: build.mutation<ConfirmItsYouView, void>({
      query: () => ({ url: 'ConfirmItsYouView', method: 'GET' }),
      transformResponse: (body: unknown) => confirmItsYouViewSchema.parse(body),
    }),
    /** `ConfirmItsYou`: the password or a passkey's assertion; confirmed, or the second factor next. */
    confirmItsYou: build.mutation<ConfirmItsYouAnswer, ConfirmItsYouRequest>({
      query: (body) => ({ url: 'ConfirmItsYou', method: 'POST', body }),
      transformResponse: (body: unknown) => confirmItsYouAnswerSchema.parse(body),
    }),
    /** `ConfirmItsYouSecondFactor`: the code after the password. */
    confirmItsYouSecondFactor: build.mutation<ConfirmItsYouAnswer, ConfirmItsYouSecondFactorRequest>({
      query: (body) => ({ url: 'ConfirmItsYouSecondFactor', method: 'POST', body }),
      transformResponse: (body: unknown) => confirmItsYouAnswerSchema.parse(body),
    }),
    /**
     * `SignInAgain`: ends this session (S21, ADR 0036); answers the sign-in page that comes back to `returnUrl`. The
     * dialog's way out for an account it cannot confirm.
     */
    signInAgain: build.mutation<{ redirect: string }, { returnUrl: string }>({
      query: (body) => ({ url: 'SignInAgain', method: 'POST', body }),
    }),
  }),
});

/** Hooks of the "Confirm it's you" calls. */
export const {
  useConfirmItsYouViewMutation,
  useConfirmItsYouMutation,
  useConfirmItsYouSecondFactorMutation,
  useSignInAgainMutation,
} = confirmItsYouApi;
