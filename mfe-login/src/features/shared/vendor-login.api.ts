import { baseApi, type RedirectFollowed } from 'shared-contracts/api';
import type { VendorLoginRequest } from 'shared-contracts';

/**
 * `VendorLogin`, the start of a sign-in at a login provider: the sign-in page's provider buttons and the vendor
 * continue page (SPEC.md §7, ADR 0018).
 */
export const vendorLoginApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `VendorLogin` (body): a 209 to the upstream's authorization endpoint (a full page load). */
    vendorLogin: build.mutation<RedirectFollowed | null, VendorLoginRequest>({
      query: (body) => ({ url: 'VendorLogin', method: 'POST', body }),
    }),
  }),
});

/** Hooks of the vendor sign-in call. */
export const { useVendorLoginMutation } = vendorLoginApi;
