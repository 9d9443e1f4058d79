import { baseApi, type RedirectFollowed } from 'shared-contracts/api';
import {
  loginWithRecoveryCodeViewSchema,
  type LoginWithRecoveryCodeRequest,
  type LoginWithRecoveryCodeView,
} from 'shared-contracts';

/** Calls of the second step with a recovery code (SPEC.md §7 "Two-factor and codes"). */
export const recoveryCodeSignInApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `LoginWithRecoveryCodeView`. */
    loginWithRecoveryCodeView: build.query<LoginWithRecoveryCodeView, void>({
      query: () => ({ url: 'LoginWithRecoveryCodeView', method: 'POST' }),
      transformResponse: (body: unknown) => loginWithRecoveryCodeViewSchema.parse(body),
      keepUnusedDataFor: 0,
    }),
    /** `LoginWithRecoveryCode`: 209 to the next step, or 400 with the field error. */
    loginWithRecoveryCode: build.mutation<RedirectFollowed | null, LoginWithRecoveryCodeRequest>({
      query: (body) => ({ url: 'LoginWithRecoveryCode', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
  }),
});

/** Hooks of the recovery-code sign-in's calls. */
export const { useLoginWithRecoveryCodeViewQuery, useLoginWithRecoveryCodeMutation } = recoveryCodeSignInApi;
