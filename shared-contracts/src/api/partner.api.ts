import { partnerDisplayName, safeCssColour, safeHttpUrl } from '../branding.js';
import {
  normalisePartnerMetadata,
  partnerMetadataWireSchema,
  type PartnerMetadata,
} from '../partner.schema.js';
import { baseApi } from './base-api.js';

/**
 * Partner metadata used when `GetPartnerMetaData` fails or answers something unreadable: the SPEC.md §3
 * defaults under a neutral name.
 */
export const FALLBACK_PARTNER: PartnerMetadata = normalisePartnerMetadata({
  partnerId: 'default',
  partnerName: 'Partner',
});

/**
 * Reads a `GetPartnerMetaData` answer: both wire readings folded into {@link PartnerMetadata} (SPEC.md §3
 * defaults), then the S34 validators applied, so no consumer ever sees a colour that could end a CSS
 * declaration, a `javascript:` privacy link, or a name with control characters. Refused values become the
 * defaults (no colour, no link); an unreadable body becomes {@link FALLBACK_PARTNER}.
 */
export function readPartnerMetadata(body: unknown): PartnerMetadata {
  const parsed = partnerMetadataWireSchema.safeParse(body);
  if (!parsed.success) return FALLBACK_PARTNER;
  const partner = normalisePartnerMetadata(parsed.data);
  return {
    ...partner,
    partnerName: partnerDisplayName(partner.partnerName),
    backgroundColor: safeCssColour(partner.backgroundColor),
    privacyPolicyUrl: safeHttpUrl(partner.privacyPolicyUrl) ?? '',
  };
}

/**
 * `GetPartnerMetaData` (POST, no payload) on the one shared API: one RTK Query cache entry per page, read by the
 * shell's start-up, the platform and any remote (`usePartnerMetadataQuery()` never fetches a second time while
 * the entry is cached).
 */
export const partnerApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** The partner of the visited host (SPEC.md §3), validated by {@link readPartnerMetadata}. */
    partnerMetadata: build.query<PartnerMetadata, void>({
      query: () => ({ url: 'GetPartnerMetaData', method: 'POST' }),
      transformResponse: readPartnerMetadata,
      // The partner of a host does not change while a page is open.
      keepUnusedDataFor: Number.POSITIVE_INFINITY,
    }),
  }),
});

/** Hook of `GetPartnerMetaData`: `data` is undefined until the answer arrives (then validated metadata). */
export const { usePartnerMetadataQuery } = partnerApi;
