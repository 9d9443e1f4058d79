import { baseApi, isRedirectFollowed, type RedirectFollowed } from 'shared-contracts/api';
import { passwordRulesSchema, type PasswordRules } from 'shared-contracts';

/** The password rules call, for the reset-password page and the expired-password step (SPEC.md §7). */
export const passwordRulesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /**
     * `PasswordRules` (body `{ token? }`): the rules of the token's account, or of the signed-in or pending user. A
     * dead token answers 209 to `/error/link-expired`, which the base query follows.
     */
    passwordRules: build.query<PasswordRules | RedirectFollowed, { token?: string }>({
      query: (body) => ({ url: 'PasswordRules', method: 'POST', body }),
      transformResponse: (body: unknown) =>
        isRedirectFollowed(body) ? body : passwordRulesSchema.parse(body),
    }),
  }),
});

/** Hooks of the password rules call. */
export const { usePasswordRulesQuery } = passwordRulesApi;

/** The rules a rules answer carries, or undefined while loading or when the call was redirected away. */
export function rulesOf(data: PasswordRules | RedirectFollowed | undefined): PasswordRules | undefined {
  return data && !isRedirectFollowed(data) ? data : undefined;
}
