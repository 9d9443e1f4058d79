import {
  CULTURE_COOKIE,
  DEFAULT_LOCALE,
  LOCALE_STORAGE_KEY,
  isRtlLocale,
  type PartnerLanguage,
} from 'shared-contracts';
import { safeLocalStorage } from './theme.js';

/** A BCP 47-like tag (`de`, `fr-CA`, `zh-Hant-TW`). Anything else is refused before it reaches a cookie. */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3}$/;

/** True when `value` is a plain language tag; it is then safe inside a cookie value or an attribute. */
export function isLanguageTag(value: unknown): value is string {
  return typeof value === 'string' && LANGUAGE_TAG.test(value);
}

/** The culture cookie's value for a locale, in ASP.NET Core's shape (SPEC.md §9): `c=<lng>|uic=<lng>`. */
export function cultureCookieValue(locale: string): string {
  return `c=${locale}|uic=${locale}`;
}

/**
 * The `c=` part of the `.AspNetCore.Culture` cookie, or undefined. Both the raw form (`c=de|uic=de`) and the
 * URL-encoded form ASP.NET Core itself writes (`c%3Dde%7Cuic%3Dde`) are read.
 */
export function readCultureCookie(
  cookieString: string = globalThis.document?.cookie ?? '',
): string | undefined {
  for (const part of cookieString.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== CULTURE_COOKIE) continue;
    let value = part.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // Keep the raw value; the pattern below decides.
    }
    const match = /(?:^|\|)c=([^|]*)/.exec(value);
    return isLanguageTag(match?.[1]) ? match[1] : undefined;
  }
  return undefined;
}

/** Writes the culture cookie (readable by the server on every request; a year long, like ASP.NET Core's). */
export function writeCultureCookie(locale: string, doc: Document = document): void {
  if (!isLanguageTag(locale)) return;
  const secure = doc.location?.protocol === 'https:' ? '; Secure' : '';
  doc.cookie = `${CULTURE_COOKIE}=${cultureCookieValue(locale)}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}

/** The locale saved in local storage, when it is a language tag. */
export function readSavedLocale(
  storage: Pick<Storage, 'getItem'> | undefined = safeLocalStorage(),
): string | undefined {
  try {
    const saved = storage?.getItem(LOCALE_STORAGE_KEY);
    return isLanguageTag(saved) ? saved : undefined;
  } catch {
    return undefined;
  }
}

/** Saves the chosen locale in local storage and in the culture cookie (SPEC.md §1). */
export function persistLocale(
  locale: string,
  storage: Pick<Storage, 'setItem'> | undefined = safeLocalStorage(),
  doc: Document = document,
): void {
  if (!isLanguageTag(locale)) return;
  try {
    storage?.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // The cookie below still carries the choice.
  }
  writeCultureCookie(locale, doc);
}

/** Case-insensitive membership of a partner's language list; answers the list's own spelling. */
export function findPartnerLanguage(languages: readonly PartnerLanguage[], locale: string | undefined) {
  if (!locale) return undefined;
  const wanted = locale.toLowerCase();
  return languages.find((language) => language.name.toLowerCase() === wanted);
}

/** Inputs of {@link chooseLocale}. */
export interface LocaleChoiceInput {
  /** The partner's languages; when given, only one of them can win. */
  availableLanguages?: readonly PartnerLanguage[];
  /** The partner's default language (SPEC.md §3). */
  defaultLanguage?: string;
  saved?: string;
  cookie?: string;
}

/**
 * The locale to show: the saved choice, else the culture cookie, else the partner's default, else en-GB. A saved
 * or cookie locale the partner does not offer is skipped, so one partner's choice does not leak into another's.
 */
export function chooseLocale(input: LocaleChoiceInput): string {
  const offered = input.availableLanguages;
  const allowed = (locale: string | undefined) =>
    isLanguageTag(locale) &&
    (!offered || offered.length === 0 ? true : Boolean(findPartnerLanguage(offered, locale)));
  for (const candidate of [input.saved, input.cookie]) {
    if (allowed(candidate))
      return offered ? (findPartnerLanguage(offered, candidate)?.name ?? candidate!) : candidate!;
  }
  if (isLanguageTag(input.defaultLanguage)) return input.defaultLanguage;
  return DEFAULT_LOCALE;
}

/** Text direction of a locale (SPEC.md §1 RTL list). */
export function directionOf(locale: string): 'rtl' | 'ltr' {
  return isRtlLocale(locale) ? 'rtl' : 'ltr';
}

/**
 * Sets `lang` and `dir` on the document. `lang` is the chosen locale even when its text falls back to en-GB:
 * the layout must mirror for an RTL language we have no translation for yet.
 */
export function applyDocumentLanguage(locale: string, root: HTMLElement = document.documentElement): void {
  if (!isLanguageTag(locale)) return;
  root.lang = locale;
  root.dir = directionOf(locale);
}
