import { Router } from 'express';

/**
 * Vendor and external sign-in (SPEC.md §7): VendorLoginView, VendorLogin, Link, Next, EexLink, ExternalUser, UpstreamLogout.
 * Mounted in the account API after the sign-in gate; the area's calls register here as its flow ships, and
 * until then they answer the API's 404.
 */
export function vendorRouter(): Router {
  return Router();
}
