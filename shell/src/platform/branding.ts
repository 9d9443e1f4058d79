import {
  partnerDisplayName,
  partnerLogoUrl,
  partnerPageTitle,
  safeCssColour,
  safeHttpUrl,
  type PartnerMetadata,
} from 'shared-contracts';

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
 * Applies the branding to the document: the title, the background colour as a CSS variable (set through the
 * CSSOM, so no style attribute is parsed and CSP stays strict), and a flag for background images.
 */
export function applyPartnerBranding(branding: PartnerBranding, doc: Document = document): void {
  doc.title = branding.title;
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

/** sRGB relative luminance (WCAG 2.x). */
export function relativeLuminance([r, g, b]: readonly [number, number, number]): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/**
 * Black or white, whichever contrasts more with the background. One of the two always reaches at least 4.58:1,
 * so text on any partner colour meets WCAG AA whatever colour the partner picked.
 */
export function contrastingTextColour(rgb: readonly [number, number, number]): '#000000' | '#ffffff' {
  const l = relativeLuminance(rgb);
  const withBlack = (l + 0.05) / 0.05;
  const withWhite = 1.05 / (l + 0.05);
  return withBlack >= withWhite ? '#000000' : '#ffffff';
}

/** Parses `rgb(r, g, b)`/`rgba(…)` or `#rrggbb`/`#rgb` into channels. */
export function parseRgb(text: string): [number, number, number] | undefined {
  const fn = /^rgba?\(\s*(\d{1,3})[\s,]+(\d{1,3})[\s,]+(\d{1,3})/i.exec(text.trim());
  if (fn) return [Number(fn[1]), Number(fn[2]), Number(fn[3])];
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})(?:[0-9a-f]{1,2})?$/i.exec(text.trim());
  if (!hex?.[1]) return undefined;
  const digits = hex[1].length === 3 ? [...hex[1]].map((d) => d + d).join('') : hex[1];
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as [number, number, number];
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
