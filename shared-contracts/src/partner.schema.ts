import { z } from 'zod/mini';
import { DEFAULT_LOCALE } from './constants.js';

/** One language a partner offers (SPEC.md §3). */
export const partnerLanguageSchema = z.object({ name: z.string(), description: z.string() });
/** One language a partner offers. */
export type PartnerLanguage = z.infer<typeof partnerLanguageSchema>;

/** The longest idle sign-out a partner may set (a day); 0 switches it off (ADR 0020). */
export const MAX_IDLE_SIGN_OUT_MINUTES = 1440;

const flags = {
  showLoginProviders: z.optional(z.boolean()),
  showLanguageOptions: z.optional(z.boolean()),
  showLanguageOption: z.optional(z.boolean()),
  showBackgroundImages: z.optional(z.boolean()),
};

/**
 * The wire shape of `GetPartnerMetaData` as the client accepts it (SPEC.md §3: two readings exist). Colour as
 * `backgroundColor` or `themesBackgroundColor`; flags flat or under `behaviour`; `showLanguageOption` alias.
 */
export const partnerMetadataWireSchema = z.object({
  partnerId: z.string(),
  partnerName: z.string(),
  partnerDomain: z.optional(z.string()),
  privacyPolicyUrl: z.nullish(z.string()),
  defaultLanguage: z.nullish(z.string()),
  availableLanguages: z.nullish(z.array(partnerLanguageSchema)),
  backgroundColor: z.nullish(z.string()),
  themesBackgroundColor: z.nullish(z.string()),
  ...flags,
  behaviour: z.nullish(z.partial(z.object(flags))),
  /**
   * Minutes without input in any tab after which the shell signs a signed-in user out without a prompt
   * (SilentLogout, ADR 0020). Absent, 0 or not a valid number: off (the rest of the metadata still reads).
   */
  idleSignOutMinutes: z.catch(
    z.nullish(z.number().check(z.int(), z.minimum(0), z.maximum(MAX_IDLE_SIGN_OUT_MINUTES))),
    undefined,
  ),
});
/** The wire shape of `GetPartnerMetaData`. */
export type PartnerMetadataWire = z.infer<typeof partnerMetadataWireSchema>;

/** Partner metadata after both readings are folded into one, with SPEC.md §3 defaults applied. */
export interface PartnerMetadata {
  partnerId: string;
  partnerName: string;
  partnerDomain: string;
  privacyPolicyUrl: string;
  defaultLanguage: string;
  availableLanguages: PartnerLanguage[];
  backgroundColor: string | undefined;
  showLoginProviders: boolean;
  showLanguageOptions: boolean;
  showBackgroundImages: boolean;
  /** Idle sign-out after this many minutes without input; 0 = off (ADR 0020). */
  idleSignOutMinutes: number;
}

/** Folds either reading of the partner metadata into {@link PartnerMetadata} with the defaults of SPEC.md §3. */
export function normalisePartnerMetadata(wire: PartnerMetadataWire): PartnerMetadata {
  const b = wire.behaviour ?? {};
  const languages = wire.availableLanguages ?? [];
  return {
    partnerId: wire.partnerId,
    partnerName: wire.partnerName,
    partnerDomain: wire.partnerDomain ?? '',
    privacyPolicyUrl: wire.privacyPolicyUrl ?? '',
    defaultLanguage: wire.defaultLanguage || DEFAULT_LOCALE,
    availableLanguages: languages.length > 0 ? languages : [{ name: DEFAULT_LOCALE, description: 'English' }],
    backgroundColor: wire.backgroundColor ?? wire.themesBackgroundColor ?? undefined,
    showLoginProviders: wire.showLoginProviders ?? b.showLoginProviders ?? false,
    showLanguageOptions:
      wire.showLanguageOptions ??
      wire.showLanguageOption ??
      b.showLanguageOptions ??
      b.showLanguageOption ??
      false,
    showBackgroundImages: wire.showBackgroundImages ?? b.showBackgroundImages ?? false,
    idleSignOutMinutes: wire.idleSignOutMinutes ?? 0,
  };
}
