import {
  normalisePartnerMetadata,
  partnerMetadataWireSchema,
  type PartnerMetadata,
} from 'shared-contracts';
import { baseApi } from 'shared-contracts/api';

/** Partner metadata used when the call fails: the SPEC.md §3 defaults under a neutral name. */
export const FALLBACK_PARTNER: PartnerMetadata = normalisePartnerMetadata({ partnerId: 'default', partnerName: 'Partner' });

/**
 * The platform's calls (SPEC.md §7 "Other"), injected on the shared base API so they get the anti-forgery and
 * locale headers like every other call.
 */
export const platformApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `GetPartnerMetaData` (POST, no payload): the partner of the visited host, both response readings folded. */
    partnerMetadata: build.query<PartnerMetadata, void>({
      query: () => ({ url: 'GetPartnerMetaData', method: 'POST' }),
      transformResponse: (body: unknown) => {
        const parsed = partnerMetadataWireSchema.safeParse(body);
        return parsed.success ? normalisePartnerMetadata(parsed.data) : FALLBACK_PARTNER;
      },
    }),
    /** `SetLanguage` (query language): the server keeps the culture for its own messages. */
    setLanguage: build.mutation<unknown, string>({
      query: (language) => ({ url: 'SetLanguage', method: 'POST', params: { language } }),
    }),
  }),
});

/** Hooks of the platform's calls. */
export const { usePartnerMetadataQuery, useSetLanguageMutation } = platformApi;
