import { baseApi } from 'shared-contracts/api';

// The partner call lives in shared-contracts/api (one cache entry for the shell, the platform and every remote);
// the platform re-exports it so its own code and tests keep one import place.
export {
  FALLBACK_PARTNER,
  partnerApi,
  readPartnerMetadata,
  usePartnerMetadataQuery,
} from 'shared-contracts/api';

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
  }),
});

/** Hook of `SetLanguage`. */
export const { useSetLanguageMutation } = platformApi;
