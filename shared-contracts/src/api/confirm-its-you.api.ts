import {
  confirmItsYouAnswerSchema,
  confirmItsYouCodeSentSchema,
  confirmItsYouViewSchema,
  type ConfirmItsYouAnswer,
  type ConfirmItsYouCodeSent,
  type ConfirmItsYouRequest,
  type ConfirmItsYouSecondFactorRequest,
  type ConfirmItsYouSendCodeRequest,
  type ConfirmItsYouView,
} from '../security-centre.schema.js';
import { baseApi } from './base-api.js';

/**
 * The calls of "Confirm it's you" (issue 49, ADR 0045). Account-ui's `ConfirmItsYouHere`, the dialog every signed-in
 * page mounts, makes them through these hooks, imported by the package's name `shared-contracts/api` (the page's one
 * API; a relative import would give the kit a second copy of it).
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
    /** `ConfirmItsYouSendCode`: a texted code or a mailed PIN, after the password, only when Send is pressed. */
    confirmItsYouSendCode: build.mutation<ConfirmItsYouCodeSent, ConfirmItsYouSendCodeRequest>({
      query: (body) => ({ url: 'ConfirmItsYouSendCode', method: 'POST', body }),
      transformResponse: (body: unknown) => confirmItsYouCodeSentSchema.parse(body),
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
  useConfirmItsYouSendCodeMutation,
  useSignInAgainMutation,
} = confirmItsYouApi;
