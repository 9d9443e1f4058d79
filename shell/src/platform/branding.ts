import {
  contrastingTextColour,
  parseRgb,
  partnerDisplayName,
  partnerLogoUrl,
  partnerPageTitle,
  safeCssColour,
  safeHttpUrl,
  type PartnerMetadata,
} from 'shared-contracts';

// One source for the contrast rule: the gateway writes the same colour into the first HTML.
export { contrastingTextColour, parseRgb } from 'shared-contracts';

/** CSS custom property holding the partner's background colour; tokens.css and platform.css read it. */
export const PARTNER_BACKGROUND_VARIABLE = '--partner-background';

/** CSS custom property holding black or white, whichever reads better on the partner's background. */
export const PARTNER_ON_BACKGROUND_VARIABLE = '--partner-on-background';

/** What the page shows of a partner, every value already validated (S34). */
export interface PartnerBranding {
  /** Plain text; rendered by React or `document.title`, never as markup. */
  name: string;
  /** "<partnerName> Identity" (SPEC.md §1). */
  title: string;
  /** A plain CSS colour, or undefined when the partner's value was missing or refused. */
  backgroundColor: string | undefined;
  /** Same-origin URL of `GetPartnerLogo`. */
  logoUrl: string;
  /** Absolute http(s) URL, or undefined when missing or refused. */
  privacyPolicyUrl: string | undefined;
  showBackgroundImages: boolean;
}

/** Validates the partner's values for display (S34): names stay text, colours and links pass or are dropped. */
export function partnerBranding(partner: PartnerMetadata): PartnerBranding {
  const name = partnerDisplayName(partner.partnerName);
  return {
    name,
    title: partnerPageTitle(name),
    backgroundColor: safeCssColour(partner.backgroundColor),
    logoUrl: partnerLogoUrl(partner.partnerId),
    privacyPolicyUrl: safeHttpUrl(partner.privacyPolicyUrl),
    showBackgroundImages: partner.showBackgroundImages,
  };
}

/**
 * Applies the branding to the document (the title is the page's: layout/page-announcer.tsx): the background colour as a CSS variable (set through the
 * CSSOM, so no style attribute is parsed and CSP stays strict), and a flag for background images.
 */
export function applyPartnerBranding(branding: PartnerBranding, doc: Document = document): void {
  const root = doc.documentElement;
  if (branding.backgroundColor) {
    root.style.setProperty(PARTNER_BACKGROUND_VARIABLE, branding.backgroundColor);
    const rgb = computedRgb(branding.backgroundColor, doc);
    if (rgb) root.style.setProperty(PARTNER_ON_BACKGROUND_VARIABLE, contrastingTextColour(rgb));
    else root.style.removeProperty(PARTNER_ON_BACKGROUND_VARIABLE);
  } else {
    root.style.removeProperty(PARTNER_BACKGROUND_VARIABLE);
    root.style.removeProperty(PARTNER_ON_BACKGROUND_VARIABLE);
  }
  if (branding.showBackgroundImages) root.dataset.backgroundImages = 'true';
  else delete root.dataset.backgroundImages;
}

/** The colour as rgb channels, letting the browser resolve named and hsl() colours through a probe element. */
function computedRgb(colour: string, doc: Document): [number, number, number] | undefined {
  const direct = parseRgb(colour);
  if (direct) return direct;
  const view = doc.defaultView;
  if (!view || !doc.body) return undefined;
  const probe = doc.createElement('span');
  probe.style.color = colour;
  probe.hidden = true;
  doc.body.append(probe);
  try {
    return parseRgb(view.getComputedStyle(probe).color);
  } finally {
    probe.remove();
  }
}

/** Name of the `<meta>` the gateway writes into the first HTML when the page's partner has a logo. */
export const PARTNER_LOGO_META = 'partner-logo';

/**
 * The partner's logo URL when the gateway's first HTML says this partner has one, else undefined: the metadata
 * call does not say whether a logo exists, and asking `GetPartnerLogo` to find out costs a request that answers
 * 404 for every partner without one.
 */
export function partnerLogoFromDocument(partnerId: string, doc: Document = document): string | undefined {
  const url = partnerLogoUrl(partnerId);
  const meta = doc.querySelector<HTMLMetaElement>(`meta[name="${PARTNER_LOGO_META}"]`);
  return meta?.content === url ? url : undefined;
}
