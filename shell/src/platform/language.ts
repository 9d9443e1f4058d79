import {
  chooseLocale,
  CULTURE_COOKIE,
  DEFAULT_LOCALE,
  LOCALE_STORAGE_KEY,
  isLanguageTag,
  isRtlLocale,
  matchSupportedLocale,
  type PartnerLanguage,
  type PartnerMetadata,
} from 'shared-contracts';
import { safeLocalStorage } from './theme.js';

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

/**
 * The locale a visitor gets on a partner's site: the saved choice, the culture cookie or the browser's languages
 * when the partner offers one, else the partner's default (see `chooseLocale`).
 */
export function partnerLocale(
  partner: Pick<PartnerMetadata, 'availableLanguages' | 'defaultLanguage'>,
): string {
  return chooseLocale({
    availableLanguages: partner.availableLanguages,
    defaultLanguage: partner.defaultLanguage,
    saved: readSavedLocale(),
    cookie: readCultureCookie(),
    accepted: navigator.languages,
  });
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

/**
 * Whether the interface has text in `locale` (its own or its language's, as `en-US` reads `en`). A partner may offer
 * a language without it (the admin CLI's --allow-untranslated); that language shows en-GB text in its own direction.
 */
export function isTranslatedLocale(locale: string): boolean {
  return matchSupportedLocale(locale) !== undefined;
}

/** Text direction of a locale (SPEC.md §1 RTL list). */
export function directionOf(locale: string): 'rtl' | 'ltr' {
  return isRtlLocale(locale) ? 'rtl' : 'ltr';
}

/**
 * Sets `lang` and `dir` on the document. `lang` is the chosen locale even when its text falls back to en-GB:
 * the layout must mirror for an RTL language we have no translation for yet. The body then says its text is
 * en-GB (a screen reader reads it with an English voice) and is marked `data-text-fallback`, under which every
 * text takes its direction from its own content (platform.css), so "Forgotten your password?" keeps its question
 * mark at the end inside the mirrored layout.
 */
export function applyDocumentLanguage(locale: string, root: HTMLElement = document.documentElement): void {
  if (!isLanguageTag(locale)) return;
  root.lang = locale;
  root.dir = directionOf(locale);
  const body = root.ownerDocument.body as HTMLElement | null;
  if (!body) return;
  if (isTranslatedLocale(locale)) {
    body.removeAttribute('lang');
    body.removeAttribute('data-text-fallback');
  } else {
    body.lang = DEFAULT_LOCALE;
    body.setAttribute('data-text-fallback', '');
  }
}
