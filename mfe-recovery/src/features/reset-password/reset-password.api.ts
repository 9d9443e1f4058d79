import { baseApi, isRedirectFollowed, type RedirectFollowed } from 'shared-contracts/api';
import {
  resetPasswordResultSchema,
  type ResetPasswordRequest,
  type ResetPasswordResult,
} from 'shared-contracts';

/** Calls of the reset-password page (SPEC.md §7 "Recovery and passwords"). */
export const resetPasswordApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `ResetPassword` (body): done (the user then signs in), a 400 errors map, or 209 to a dead-link page. */
    resetPassword: build.mutation<ResetPasswordResult | RedirectFollowed, ResetPasswordRequest>({
      query: (body) => ({ url: 'ResetPassword', method: 'POST', body }),
      transformResponse: (body: unknown) =>
        isRedirectFollowed(body) ? body : resetPasswordResultSchema.parse(body),
    }),
  }),
});

/** Hooks of the reset-password page's calls. */
export const { useResetPasswordMutation } = resetPasswordApi;
