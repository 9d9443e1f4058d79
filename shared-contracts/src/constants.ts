/**
 * Business constants of SPEC.md §9 and protocol names of SPEC.md §7/§9 that the UI and the server must agree on.
 */

/** The locale used when nothing else is chosen (SPEC.md §1, §9). */
export const DEFAULT_LOCALE = 'en-GB';

/** Locales whose interface text ships with the product (SPEC.md §1). */
export const SUPPORTED_LOCALES = ['en-GB', 'en', 'de', 'fr-CA', 'es'] as const;

/** A locale whose interface text ships with the product. */
export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];

/** Language codes written right to left (SPEC.md §1). A locale such as `ar-EG` is RTL when its language is listed. */
export const RTL_LANGUAGES = [
  'ar',
  'arc',
  'dv',
  'fa',
  'ha',
  'he',
  'khw',
  'ks',
  'ku',
  'ps',
  'ur',
  'yi',
] as const;

/** True when the locale's primary language subtag is written right to left. */
export function isRtlLocale(locale: string): boolean {
  const language = locale.split(/[-_]/)[0]?.toLowerCase() ?? '';
  return (RTL_LANGUAGES as readonly string[]).includes(language);
}

/** The account API base path (SPEC.md §7). */
export const ACCOUNT_API_BASE = '/api/Account/';

/** Suffix of the anti-forgery cookie's name (SPEC.md §9). The client finds the cookie whose name ends with it. */
export const ANTIFORGERY_COOKIE_SUFFIX = 'x-csrf-token-value';

/** Header that echoes the anti-forgery cookie's value on every non-GET call (SPEC.md §7, §9). */
export const ANTIFORGERY_HEADER = 'x-csrf-token-value';

/** Header naming the locales the client supports, comma separated (SPEC.md §7). */
export const SUPPORTED_LOCALES_HEADER = 'x-supported-locales';

/** Header naming the client's default locale (SPEC.md §7). */
export const DEFAULT_LOCALE_HEADER = 'x-default-locale';

/** Value of X-Requested-With sent on every call (SPEC.md §7). */
export const REQUESTED_WITH = 'XMLHttpRequest';

/** Culture cookie (SPEC.md §9); its value is `c=<lng>|uic=<lng>` and its `c=` part is read. */
export const CULTURE_COOKIE = '.AspNetCore.Culture';

/** Local-storage key under which the chosen locale is kept (SPEC.md §1). */
export const LOCALE_STORAGE_KEY = 'locale';

/** Local-storage key of the colour-scheme setting (SPEC.md §9). */
export const COLOR_SCHEME_STORAGE_KEY = 'color-scheme';

/** Values of the colour-scheme setting (SPEC.md §9). */
export const COLOR_SCHEMES = ['auto', 'dark', 'light'] as const;

/** A saved colour-scheme choice. */
export type ColorScheme = (typeof COLOR_SCHEMES)[number];

/** How long a toast stays, in milliseconds (SPEC.md §9). */
export const TOAST_DURATION_MS = 2000;

/** Breakpoints in CSS pixels (SPEC.md §9). */
export const BREAKPOINTS = { mobile: 767, tablet: 1023 } as const;

/** Asset version (SPEC.md §9). */
export const ASSET_VERSION = '1.0.1';

/** Path of the remotes manifest the gateway serves per browser (ARCHITECTURE.md "Releases"). */
export const REMOTES_MANIFEST_PATH = '/remotes/manifest.json';

/** Path of the client-error report endpoint (ARCHITECTURE.md, gateway ops). */
export const CLIENT_ERROR_REPORT_PATH = '/api/ops/client-errors';

/**
 * Attribute of `<html>` while a submit of the gateway's drawn first paint waits for the app (its value: the form's
 * index in the root): the shell's head script sets it, the takeover submits that form again (ADR 0007).
 */
export const HELD_SUBMIT_ATTRIBUTE = 'data-held-submit';

/** After this long without the app, a held first-paint submit goes to the gateway as a plain form post after all. */
export const HELD_SUBMIT_FALLBACK_MS = 15_000;

/**
 * The date floors of SPEC.md §9: the earliest date a date picker offers by default (a date of birth, an audit
 * range: nothing real is older), and the earliest date any date picker accepts at all.
 */
export const DATE_FLOORS = { default: '1901-01-01', absolute: '0001-01-01' } as const;

/** How long a date picker waits after the last keystroke before the typed date counts (SPEC.md §5, §9). */
export const DATE_PICKER_DEBOUNCE_MS = 300;
