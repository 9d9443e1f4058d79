import type { ErrorRecord, SystemStatus } from 'shared-contracts';
import { baseApi } from 'shared-contracts/api';

// The partner call lives in shared-contracts/api (one cache entry for the shell, the platform and every remote);
// the platform re-exports it so its own code and tests keep one import place.
export { FALLBACK_PARTNER, readPartnerMetadata, usePartnerMetadataQuery } from 'shared-contracts/api';

/**
 * The platform's own calls (SPEC.md §7 "Other"), injected on the shared base API so they get the anti-forgery and
 * locale headers like every other call.
 */
export const platformApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `SetLanguage` (query language): the server keeps the culture for its own messages. */
    setLanguage: build.mutation<unknown, string>({
      query: (language) => ({ url: 'SetLanguage', method: 'POST', params: { language } }),
    }),
    /**
     * `SilentLogout` (body): the idle timer's sign-out without a prompt (ADR 0020). Answers 209 to
     * `/account/loggedout?reason=inactivity`, which the API client follows.
     */
    silentLogout: build.mutation<unknown, void>({
      query: () => ({ url: 'SilentLogout', method: 'POST', body: {} }),
      invalidatesTags: ['User'],
    }),
    /** `SystemStatus`: the service's and each remote's state and versions (the /devops page polls it). */
    systemStatus: build.query<SystemStatus, void>({
      query: () => ({ url: 'SystemStatus', method: 'GET' }),
    }),
    /** `Error` (query errorId): the safe fields of a recorded error; a 404 for an unknown or expired reference. */
    errorRecord: build.query<ErrorRecord, string>({
      query: (errorId) => ({ url: 'Error', method: 'GET', params: { errorId } }),
    }),
  }),
});

/** Hook of `SetLanguage`. */
export const { useSetLanguageMutation, useSilentLogoutMutation, useSystemStatusQuery, useErrorRecordQuery } =
  platformApi;
