import type { PartnerMetadata } from 'shared-contracts';
import { readPartnerMetadata } from './platform.api.js';

/** Storage key of the last partner metadata this host answered (public branding: name, colour, languages). */
export const REMEMBERED_PARTNER_KEY = 'partner-metadata';

/** Keeps the partner of this host for a later page that opens without a network (offline shell). */
export function rememberPartner(partner: PartnerMetadata): void {
  try {
    localStorage.setItem(REMEMBERED_PARTNER_KEY, JSON.stringify(partner));
  } catch {
    // No storage (private mode, quota): an offline page then shows the neutral defaults.
  }
}

/**
 * The partner this host answered last, read through the same validators as a fresh answer (S34: what storage
 * holds is not trusted), or undefined when none was kept or it is unreadable.
 */
export function rememberedPartner(): PartnerMetadata | undefined {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(REMEMBERED_PARTNER_KEY);
  } catch {
    return undefined;
  }
  if (!raw) return undefined;
  try {
    const partner = readPartnerMetadata(JSON.parse(raw));
    return partner.partnerId === 'default' ? undefined : partner;
  } catch {
    return undefined;
  }
}
