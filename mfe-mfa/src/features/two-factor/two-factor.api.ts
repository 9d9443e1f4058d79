import { baseApi, type RedirectFollowed } from 'shared-contracts/api';
import { loginWith2faViewSchema, type LoginWith2faRequest, type LoginWith2faView } from 'shared-contracts';

/** Calls of the second step of a sign-in, injected into the one shared API (SPEC.md §7 "Two-factor and codes"). */
export const twoFactorApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `LoginWith2FAView`: the methods the pending sign-in may use. */
    loginWith2faView: build.query<LoginWith2faView, void>({
      query: () => ({ url: 'LoginWith2FAView', method: 'POST' }),
      transformResponse: (body: unknown) => loginWith2faViewSchema.parse(body),
      keepUnusedDataFor: 0,
    }),
    /** `LoginWith2FA`: 209 to the next step, or 400 with the field error. */
    loginWith2fa: build.mutation<RedirectFollowed | null, LoginWith2faRequest>({
      query: (body) => ({ url: 'LoginWith2FA', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
  }),
});

/** Hooks of the second step's calls. */
export const { useLoginWith2faViewQuery, useLoginWith2faMutation } = twoFactorApi;
