/**
 * Validation of partner branding values (SECURITY-CHECKLIST S34). Shared by the gateway, which refuses bad values
 * when a partner is saved and before they reach the first HTML, and by the shell, which checks them again before
 * applying them, so a value that slipped into storage by another path still never becomes CSS or a link.
 */

/** CSS named colours (CSS Color Module Level 4), plus `transparent`. `currentcolor` is left out on purpose. */
const NAMED_COLOURS = new Set(
  (
    'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown ' +
    'burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan ' +
    'darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred ' +
    'darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink ' +
    'deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold ' +
    'goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki lavender lavenderblush ' +
    'lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey ' +
    'lightpink lightsalmon lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime ' +
    'limegreen linen magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen ' +
    'mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin ' +
    'navajowhite navy oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise ' +
    'palevioletred papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown royalblue ' +
    'saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey snow ' +
    'springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen ' +
    'transparent'
  ).split(' '),
);

const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const NUMBER = String.raw`[+-]?(?:\d{1,3}(?:\.\d+)?|\.\d+)`;
const COMPONENT = String.raw`${NUMBER}(?:%|deg)?`;
// rgb()/rgba()/hsl()/hsla() with numeric components only, comma or space syntax, optional "/ alpha".
const FUNCTIONAL_COLOUR = new RegExp(
  String.raw`^(?:rgba?|hsla?)\(\s*${COMPONENT}(?:\s*,\s*|\s+)${COMPONENT}(?:\s*,\s*|\s+)${COMPONENT}(?:\s*(?:,|/)\s*${COMPONENT})?\s*\)$`,
  'i',
);

/** Longest colour value accepted; a real colour is far shorter, a payload usually longer. */
export const MAX_COLOUR_LENGTH = 64;

/**
 * True when `value` is a plain CSS colour: a hex colour, a named colour, or rgb()/hsl() with numeric components.
 * Anything else (a `;`, `url(`, `expression(`, `var(`, quotes, comments) is refused, so the value can be written
 * into a CSS custom property or an inline `<style>` without ending the declaration (S34).
 */
export function isSafeCssColour(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const colour = value.trim();
  if (colour.length === 0 || colour.length > MAX_COLOUR_LENGTH) return false;
  return HEX_COLOUR.test(colour) || NAMED_COLOURS.has(colour.toLowerCase()) || FUNCTIONAL_COLOUR.test(colour);
}

/** The colour trimmed when it is safe ({@link isSafeCssColour}), otherwise `undefined`. */
export function safeCssColour(value: unknown): string | undefined {
  return isSafeCssColour(value) ? value.trim() : undefined;
}

/** Longest link accepted for a partner's privacy policy. */
export const MAX_BRANDING_URL_LENGTH = 2048;

/**
 * The absolute `http:`/`https:` URL normalised by the URL parser, or `undefined` for anything else: relative
 * paths, `javascript:`, `data:`, `vbscript:`, URLs with user info, or text holding control characters or spaces
 * (S34). A partner's privacy link points at the partner's own site, so only absolute web URLs make sense.
 */
export function safeHttpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  if (text.length === 0 || text.length > MAX_BRANDING_URL_LENGTH || /[\u0000-\u0020\u007f\\]/.test(text)) {
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username !== '' || url.password !== '' || url.hostname === '') return undefined;
  return url.href;
}

/** Longest partner name shown; longer names are cut (a title is not a document). */
export const MAX_PARTNER_NAME_LENGTH = 100;

/**
 * The partner name as plain text for a title: control characters removed, whitespace collapsed, length bounded.
 * It is still text, not markup; whoever writes it into HTML escapes it ({@link escapeHtmlText}).
 */
export function partnerDisplayName(value: unknown, fallback = 'Partner'): string {
  if (typeof value !== 'string') return fallback;
  const text = value
    // eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length === 0 ? fallback : text.slice(0, MAX_PARTNER_NAME_LENGTH);
}

/** The page title for a partner (SPEC.md §1): "<partnerName> Identity". */
export function partnerPageTitle(partnerName: unknown): string {
  return `${partnerDisplayName(partnerName)} Identity`;
}

/** Escapes text for an HTML text node or a double-quoted attribute value. */
export function escapeHtmlText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The logo URL of a partner (SPEC.md §7 `GET GetPartnerLogo`), same origin, id URL-encoded. */
export function partnerLogoUrl(partnerId: string): string {
  return `/api/Account/GetPartnerLogo?partnerId=${encodeURIComponent(partnerId)}`;
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
