import { baseApi, type RedirectFollowed } from 'shared-contracts/api';
import {
  ottRequestedSchema,
  type LoginWithOttRequest,
  type OttRequested,
  type SendOttRequest,
} from 'shared-contracts';

/** Calls of the one-time-token sign-in (SPEC.md §7; ADR 0019), injected into the one shared API. */
export const ottApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `SendOTP {username}`: mails a code and a link; the same answer whether an account matched (S10). */
    sendSignInCode: build.mutation<OttRequested, SendOttRequest>({
      query: (body) => ({ url: 'SendOTP', method: 'POST', body }),
      transformResponse: (body: unknown) => ottRequestedSchema.parse(body),
    }),
    /**
     * `LoginWithOTT {code | token}`: answers 209 to the next sign-in step, or 400 with field errors. The base query
     * fetches an anti-forgery token first when the cookie is missing (SPEC.md §7), as the link's page may be the
     * browser's first page.
     */
    loginWithOtt: build.mutation<RedirectFollowed | null, LoginWithOttRequest>({
      query: (body) => ({ url: 'LoginWithOTT', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
  }),
});

/** Hooks of the one-time-token calls. */
export const { useSendSignInCodeMutation, useLoginWithOttMutation } = ottApi;
