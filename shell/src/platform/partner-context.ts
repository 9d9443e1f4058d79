import { createContext, useContext } from 'react';
import type { PartnerMetadata } from 'shared-contracts';
import { FALLBACK_PARTNER } from './platform.api.js';

/** The partner of the visited host, as loaded by {@link PlatformRoot}; the SPEC.md §3 defaults until then. */
export const PartnerContext = createContext<PartnerMetadata>(FALLBACK_PARTNER);

/** The partner of the visited host (SPEC.md §3), with its flags: showLoginProviders, showLanguageOptions… */
export function usePartner(): PartnerMetadata {
  return useContext(PartnerContext);
}
