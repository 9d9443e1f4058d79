import {
  DEFAULT_LOCALE,
  SUPPORTED_LOCALES,
  partnerDisplayName,
  partnerPageTitle,
  safeCssColour,
  safeHttpUrl,
  type PartnerLanguage,
  type PartnerMetadataWire,
} from 'shared-contracts';
import type { Partner, PartnerRepository } from '../../store/partner.repository.js';
import { cachedValue, type CachedValue, type CacheOptions } from '../config-cache/ttl-cache.js';

/** A plain language tag (`de`, `fr-CA`); anything else never reaches a cookie or a response. */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3}$/;

/** Raster logo types served as they are. */
const RASTER_LOGO_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** SVG can carry script; it is served only under a CSP sandbox (see {@link PartnerLogo.sandboxed}). */
const SVG_LOGO_TYPE = 'image/svg+xml';

/** Partner metadata when no partner is configured at all (SPEC.md §3 defaults). */
const NO_PARTNER: PartnerMetadataWire = {
  partnerId: 'default',
  partnerName: 'Identity',
  partnerDomain: '',
  privacyPolicyUrl: '',
  defaultLanguage: DEFAULT_LOCALE,
  availableLanguages: [{ name: DEFAULT_LOCALE, description: 'English' }],
  backgroundColor: null,
  showLoginProviders: false,
  showLanguageOptions: false,
  showBackgroundImages: false,
};

/** A logo ready to send. */
export interface PartnerLogo {
  bytes: Buffer;
  contentType: string;
  /** True for SVG: the response must carry a CSP sandbox so any script inside it cannot run. */
  sandboxed: boolean;
}

/** The partner values of the shell's first HTML (no flash of an unbranded page), validated. */
export interface PartnerShellValues {
  title: string;
  backgroundColor: string | undefined;
}

/** True when the value is a plain language tag. */
export function isLanguageTag(value: unknown): value is string {
  return typeof value === 'string' && LANGUAGE_TAG.test(value);
}

function validLanguages(languages: readonly PartnerLanguage[]): PartnerLanguage[] {
  const valid = languages
    .filter((l) => isLanguageTag(l.name))
    .map((l) => ({ name: l.name, description: partnerDisplayName(l.description, l.name) }));
  return valid.length > 0 ? valid : [{ name: DEFAULT_LOCALE, description: 'English' }];
}

/**
 * The metadata answer for a partner: every value validated on the way out (S34), so a bad value stored by any
 * path is dropped here too (colour omitted, privacy link empty, name kept as text). Both readings of SPEC.md §3
 * are served: flags flat and under `behaviour` (with the `showLanguageOption` alias), the colour under both names.
 */
export function partnerMetadataOf(partner: Partner): PartnerMetadataWire {
  const backgroundColor = safeCssColour(partner.backgroundColor) ?? null;
  const flags = {
    showLoginProviders: partner.showLoginProviders,
    showLanguageOptions: partner.showLanguageOptions,
    showBackgroundImages: partner.showBackgroundImages,
  };
  const availableLanguages = validLanguages(partner.availableLanguages);
  const defaultLanguage = isLanguageTag(partner.defaultLanguage) ? partner.defaultLanguage : DEFAULT_LOCALE;
  return {
    partnerId: partner.id,
    partnerName: partnerDisplayName(partner.name),
    partnerDomain: partner.domains[0] ?? '',
    privacyPolicyUrl: safeHttpUrl(partner.privacyPolicyUrl) ?? '',
    defaultLanguage,
    availableLanguages,
    backgroundColor,
    themesBackgroundColor: backgroundColor,
    ...flags,
    behaviour: { ...flags, showLanguageOption: partner.showLanguageOptions },
    idleSignOutMinutes: partner.idleSignOutMinutes,
  };
}

/** The partner whose domains include the host (lower-cased, with or without its port), else the default one. */
function partnerForHost(all: readonly Partner[], host: string | undefined): Partner | undefined {
  const wanted = (host ?? '').toLowerCase();
  const bare = wanted.replace(/:\d+$/, '');
  return (
    all.find((p) => p.domains.includes(wanted)) ??
    all.find((p) => p.domains.includes(bare)) ??
    all.find((p) => p.isDefault) ??
    all[0]
  );
}

/**
 * Partner branding and languages (SPEC.md §3, §7 "Other"). The partner is chosen from the request's host: Host
 * only selects branding here, it never builds a link (S13 concerns links), and an unknown host gets the default.
 *
 * Every API call asks for the host's partner (its language), so the partner list is kept in process: reloaded at
 * most every few seconds (changes by the admin CLI or another replica show within that), and at once after a
 * write through this process's repository. One list, whatever Host says, so no header can grow the cache.
 */
export class PartnerService {
  private readonly all: CachedValue<Partner[]>;
  /** Each loaded partner's metadata answer, worked out once: a reload of the list brings new partner objects. */
  private readonly metadata = new WeakMap<Partner, PartnerMetadataWire>();

  constructor(
    private readonly partners: Pick<PartnerRepository, 'list' | 'onChange'>,
    cache: CacheOptions = {},
  ) {
    this.all = cachedValue(() => partners.list(), cache);
    partners.onChange(() => this.all.invalidate());
  }

  /** The partner serving this host (its configured domains), else the default partner. */
  async forHost(host: string | undefined): Promise<Partner | undefined> {
    return partnerForHost(await this.all.get(), host);
  }

  /**
   * {@link forHost} without a promise while the list is loaded and fresh (`{ partner }`), else undefined: callers
   * on every request take this and fall back to `forHost` (which loads) when it says nothing.
   */
  peekForHost(host: string | undefined): { partner: Partner | undefined } | undefined {
    const all = this.all.peek();
    return all && { partner: partnerForHost(all.value, host) };
  }

  /** `GetPartnerMetaData` for a host. */
  async metadataForHost(host: string | undefined): Promise<PartnerMetadataWire> {
    return this.metadataOf((this.peekForHost(host) ?? { partner: await this.forHost(host) }).partner);
  }

  private metadataOf(partner: Partner | undefined): PartnerMetadataWire {
    if (!partner) return NO_PARTNER;
    let metadata = this.metadata.get(partner);
    if (!metadata) this.metadata.set(partner, (metadata = partnerMetadataOf(partner)));
    return metadata;
  }

  /** The first-HTML values for a host: "<partnerName> Identity" and a validated colour. */
  async shellValuesForHost(host: string | undefined): Promise<PartnerShellValues> {
    const partner = await this.forHost(host);
    return {
      title: partnerPageTitle(partner?.name ?? NO_PARTNER.partnerName),
      backgroundColor: safeCssColour(partner?.backgroundColor),
    };
  }

  /** `GetPartnerLogo`: the stored logo when it has an image type we serve, else undefined (404). */
  async logo(partnerId: string): Promise<PartnerLogo | undefined> {
    const partner = (await this.all.get()).find((p) => p.id === partnerId);
    if (!partner?.logo || !partner.logoContentType) return undefined;
    const contentType = partner.logoContentType.toLowerCase().split(';')[0]!.trim();
    if (!RASTER_LOGO_TYPES.has(contentType) && contentType !== SVG_LOGO_TYPE) return undefined;
    const bytes = Buffer.from(partner.logo, 'base64');
    if (bytes.length === 0) return undefined;
    return { bytes, contentType, sandboxed: contentType === SVG_LOGO_TYPE };
  }

  /**
   * `SetLanguage`: the language as the site spells it when it is one we ship text for or one the host's partner
   * offers (case-insensitive), else undefined.
   */
  async acceptedLanguage(host: string | undefined, language: unknown): Promise<string | undefined> {
    if (!isLanguageTag(language)) return undefined;
    const wanted = language.toLowerCase();
    const shipped = SUPPORTED_LOCALES.find((l) => l.toLowerCase() === wanted);
    if (shipped) return shipped;
    const partner = await this.forHost(host);
    return validLanguages(partner?.availableLanguages ?? []).find((l) => l.name.toLowerCase() === wanted)
      ?.name;
  }
}
