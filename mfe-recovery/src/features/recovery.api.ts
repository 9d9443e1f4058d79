import { baseApi, isRedirectFollowed, type RedirectFollowed } from 'shared-contracts/api';
import {
  passwordRulesSchema,
  recoverResultSchema,
  resetPasswordResultSchema,
  type ChangeExpiredPasswordRequest,
  type PasswordRules,
  type RecoverRequest,
  type RecoverResult,
  type ResetPasswordRequest,
  type ResetPasswordResult,
} from 'shared-contracts';

/** Calls of recovery and passwords, injected into the one shared API (SPEC.md §7 "Recovery and passwords"). */
export const recoveryApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `Recover` (body): always the same answer whether an account matched or not; 400 when throttled. */
    recover: build.mutation<RecoverResult, RecoverRequest>({
      query: (body) => ({ url: 'Recover', method: 'POST', body }),
      transformResponse: (body: unknown) => recoverResultSchema.parse(body),
    }),
    /**
     * `PasswordRules` (body `{ token? }`): the rules of the token's account, or of the signed-in or pending user. A
     * dead token answers 209 to `/error/link-expired`, which the base query follows.
     */
    passwordRules: build.query<PasswordRules | RedirectFollowed, { token?: string }>({
      query: (body) => ({ url: 'PasswordRules', method: 'POST', body }),
      transformResponse: (body: unknown) =>
        isRedirectFollowed(body) ? body : passwordRulesSchema.parse(body),
    }),
    /** `ResetPassword` (body): done (the user then signs in), a 400 errors map, or 209 to a dead-link page. */
    resetPassword: build.mutation<ResetPasswordResult | RedirectFollowed, ResetPasswordRequest>({
      query: (body) => ({ url: 'ResetPassword', method: 'POST', body }),
      transformResponse: (body: unknown) =>
        isRedirectFollowed(body) ? body : resetPasswordResultSchema.parse(body),
    }),
    /** `ChangeExpiredPassword` (body): the expired-password step; the 209 continues the sign-in. */
    changeExpiredPassword: build.mutation<RedirectFollowed | null, ChangeExpiredPasswordRequest>({
      query: (body) => ({ url: 'ChangeExpiredPassword', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
  }),
});

/** Hooks of the recovery calls. */
export const {
  useRecoverMutation,
  usePasswordRulesQuery,
  useResetPasswordMutation,
  useChangeExpiredPasswordMutation,
} = recoveryApi;

/** The rules a rules answer carries, or undefined while loading or when the call was redirected away. */
export function rulesOf(data: PasswordRules | RedirectFollowed | undefined): PasswordRules | undefined {
  return data && !isRedirectFollowed(data) ? data : undefined;
}
