import { createApi } from '@reduxjs/toolkit/query/react';
import { antiforgeryTokenSchema, type AntiforgeryToken, type ExchangeRequest } from '../login.schema.js';
import { ANONYMOUS_USER, currentUserSchema, type CurrentUser } from '../user.schema.js';
import { accountBaseQuery } from './account-base-query.js';

/** Query of `User`: the returnUrl of the navigation being made (SPEC.md §2, default "/"). */
export interface UserQuery {
  returnUrl?: string;
}

/**
 * The one RTK Query API of the site (`reducerPath: 'api'`). It holds only the calls the shell itself needs;
 * remotes add theirs with `baseApi.injectEndpoints` so every call goes through {@link accountBaseQuery}.
 * Tag `User` is invalidated by any call that changes who is signed in (or how the header names them); tag `Account`
 * by any call, in any remote, that changes what the security centre shows (a way in, a customer, a session, the
 * profile). The store is one federation singleton, so a passkey added in mfe-devices or a customer chosen in
 * mfe-tenant refetches the security centre's view (or drops it from the cache when nothing shows it) without a
 * reload (issue 49 "live data").
 */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery: accountBaseQuery,
  tagTypes: ['User', 'Account'],
  endpoints: (build) => ({
    /** `User` (query returnUrl): the current user; anonymous on any unexpected answer. */
    user: build.query<CurrentUser, UserQuery | void>({
      query: (query) => ({ url: 'User', method: 'POST', params: { returnUrl: query?.returnUrl ?? '/' } }),
      // The answer describes the session, whatever returnUrl the page passes (the server only validates it): one
      // cache entry for every reader, so a page whose readers pass different returnUrls asks once, not once each.
      serializeQueryArgs: () => 'user',
      transformResponse: (body: unknown) => {
        const parsed = currentUserSchema.safeParse(body);
        return parsed.success ? parsed.data : ANONYMOUS_USER;
      },
      providesTags: ['User'],
    }),
    /** `GET Antiforgery`: issues or refreshes the anti-forgery cookie. */
    antiforgery: build.query<AntiforgeryToken, void>({
      query: () => ({ url: 'Antiforgery', method: 'GET' }),
      transformResponse: (body: unknown) => antiforgeryTokenSchema.parse(body),
    }),
    /** `Exchange` (body state): a fresh anti-forgery token for a 209 state. */
    exchange: build.mutation<AntiforgeryToken, ExchangeRequest>({
      query: (body) => ({ url: 'Exchange', method: 'POST', body }),
      transformResponse: (body: unknown) => antiforgeryTokenSchema.parse(body),
    }),
  }),
});

/** Hooks of the shell's own calls. */
export const { useUserQuery, useLazyUserQuery } = baseApi;
