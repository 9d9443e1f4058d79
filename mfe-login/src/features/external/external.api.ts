import { baseApi, type RedirectFollowed } from 'shared-contracts/api';
import {
  externalUserSchema,
  logoutViewSchema,
  vendorLoginViewSchema,
  type ExternalUser,
  type LinkRequest,
  type LogoutView,
  type VendorLoginView,
} from 'shared-contracts';

/** Calls of the vendor continue page, linking and the upstream sign-out (SPEC.md §7, ADR 0018). */
export const externalApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `VendorLoginView` (query vendorId): the provider's name for its continue page. */
    vendorLoginView: build.query<VendorLoginView, { vendorId: string }>({
      query: ({ vendorId }) => ({ url: 'VendorLoginView', method: 'POST', params: { vendorId } }),
      transformResponse: (body: unknown) => vendorLoginViewSchema.parse(body),
    }),
    /** `GET ExternalUser`: who the upstream said the visitor is. */
    externalUser: build.query<ExternalUser, void>({
      query: () => ({ url: 'ExternalUser', method: 'GET' }),
      transformResponse: (body: unknown) => externalUserSchema.parse(body),
    }),
    /** `Link` (body): the local username and password link the upstream identity and sign in. */
    link: build.mutation<RedirectFollowed | null, LinkRequest>({
      query: (body) => ({ url: 'Link', method: 'POST', body }),
      invalidatesTags: ['User', 'Account'],
    }),
    /** `Next` (query button): `back` forgets the upstream identity and returns to the sign-in page. */
    next: build.mutation<RedirectFollowed | null, { button: 'back' }>({
      query: ({ button }) => ({ url: 'Next', method: 'POST', params: { button }, body: {} }),
    }),
    /** `LogoutView` by GET: reads (never uses up) the sign-out record, for the upstream question. */
    upstreamLogoutView: build.query<LogoutView, { logoutId?: string }>({
      query: ({ logoutId }) => ({ url: 'LogoutView', method: 'GET', params: { logoutId } }),
      transformResponse: (body: unknown) => logoutViewSchema.parse(body),
    }),
    /** `UpstreamLogout` (query button): `yes` goes to the upstream's end-session, `no` to the logged-out page. */
    upstreamLogout: build.mutation<RedirectFollowed | null, { button: 'yes' | 'no' }>({
      query: ({ button }) => ({ url: 'UpstreamLogout', method: 'POST', params: { button }, body: {} }),
    }),
  }),
});

/** Hooks of the external sign-in calls. */
export const {
  useVendorLoginViewQuery,
  useExternalUserQuery,
  useLinkMutation,
  useNextMutation,
  useUpstreamLogoutViewQuery,
  useUpstreamLogoutMutation,
} = externalApi;
