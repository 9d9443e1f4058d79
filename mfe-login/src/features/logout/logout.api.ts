import { baseApi, type RedirectFollowed } from 'shared-contracts/api';
import { logoutViewSchema, type LogoutRequest, type LogoutView } from 'shared-contracts';

/** Calls of the sign-out flow (SPEC.md §7 "Sign-out"). */
export const logoutApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `LogoutView` (query logoutId): whether the visitor must confirm; after sign-out, the return link (once). */
    logoutView: build.query<LogoutView, { logoutId?: string }>({
      query: ({ logoutId }) => ({ url: 'LogoutView', method: 'POST', params: { logoutId } }),
      transformResponse: (body: unknown) => logoutViewSchema.parse(body),
    }),
    /** `Logout` (body): ends the session; answers 209 to the logged-out page (`?logoutId=` after an application's sign-out). */
    logout: build.mutation<RedirectFollowed | null, LogoutRequest>({
      query: (body) => ({ url: 'Logout', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
  }),
});

/** Hooks of the sign-out calls. */
export const { useLogoutViewQuery, useLogoutMutation } = logoutApi;
