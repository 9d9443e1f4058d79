import { baseApi, type RedirectFollowed } from 'shared-contracts/api';
import {
  loginViewSchema,
  type LoginRequest,
  type LoginView,
  type SilentLoginRequest,
} from 'shared-contracts';

/** Calls of the sign-in flow, injected into the one shared API (SPEC.md §7 "Sign-in"). */
export const loginApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `LoginView` (query returnUrl): what the sign-in page shows. */
    loginView: build.query<LoginView, { returnUrl: string }>({
      query: ({ returnUrl }) => ({ url: 'LoginView', method: 'POST', params: { returnUrl } }),
      transformResponse: (body: unknown) => loginViewSchema.parse(body),
    }),
    /** `Login` (body): answers 209 to the next step, or 400 with field errors. */
    login: build.mutation<RedirectFollowed | null, LoginRequest>({
      query: (body) => ({ url: 'Login', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    /**
     * `SilentLogin` (body returnUrl, ADR 0020): a remembered sign-in goes on to the application without typing
     * (209, followed), or to a step that applies again; `false` when it does not apply.
     */
    silentLogin: build.mutation<RedirectFollowed | boolean | null, SilentLoginRequest>({
      query: (body) => ({ url: 'SilentLogin', method: 'POST', body }),
      invalidatesTags: (result) => (result === false ? [] : ['User']),
    }),
  }),
});

/** Hooks of the sign-in calls. */
export const { useLoginViewQuery, useLoginMutation, useSilentLoginMutation } = loginApi;
