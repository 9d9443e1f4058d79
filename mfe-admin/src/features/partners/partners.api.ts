import { confirmedChange } from 'shared-contracts/account-ui';
import { baseApi } from 'shared-contracts/api';
import {
  partnerSettingsSchema,
  type PartnerSettings,
  type UpdatePartnerRequest,
} from 'shared-contracts/console';

/** What `UploadPartnerLogo` takes: the partner, the image file itself, and the optional reason. */
export interface UploadPartnerLogoArgs {
  id: string;
  file: Blob;
  reason?: string;
}

/**
 * The Partners page's calls (issue 52, ADR 0062). Tag `Partners`: a saved change or logo asks the list and the
 * partner again, so nothing stale stays on the page. Changes are confirmed in place when the sign-in is not recent.
 */
export const partnersApi = baseApi.enhanceEndpoints({ addTagTypes: ['Partners'] }).injectEndpoints({
  endpoints: (build) => ({
    consolePartner: build.query<PartnerSettings, string>({
      query: (id) => ({ url: 'ConsolePartner', method: 'GET', params: { id } }),
      transformResponse: (body: unknown) => partnerSettingsSchema.parse(body),
      providesTags: ['Partners'],
    }),
    updatePartner: build.mutation<unknown, UpdatePartnerRequest>({
      queryFn: confirmedChange<
        UpdatePartnerRequest,
        { url: string; method: 'POST'; body: UpdatePartnerRequest }
      >((body) => ({ url: 'UpdatePartner', method: 'POST', body })),
      invalidatesTags: ['Partners'],
    }),
    // The image is the body as it is, its type the Content-Type (the account base query sends a Blob unchanged).
    uploadPartnerLogo: build.mutation<unknown, UploadPartnerLogoArgs>({
      queryFn: confirmedChange<
        UploadPartnerLogoArgs,
        {
          url: string;
          method: 'POST';
          params: Record<string, string>;
          body: Blob;
        }
      >(({ id, file, reason }) => ({
        url: 'UploadPartnerLogo',
        method: 'POST',
        params: { id, ...(reason ? { reason } : {}) },
        body: file,
      })),
      invalidatesTags: ['Partners'],
    }),
  }),
});

/** Hooks of the Partners page. */
export const { useConsolePartnerQuery, useUpdatePartnerMutation, useUploadPartnerLogoMutation } = partnersApi;
