/**
 * The `errors` translations as the browser takes them: en-GB's ({@link ERROR_MESSAGES}) at once, another locale's
 * with {@link loadErrorTranslations}, a chunk of its own per locale, so a page fetches only the language it shows
 * (issue 10). Every locale at once, synchronously (the gateway's translated 400 `title`/`detail`, build-time
 * renders, tests): `shared-contracts/locales`. TypeScript modules rather than JSON files so the compiler checks
 * that every locale has exactly the codes of {@link ERROR_MESSAGES} (the en-GB source) and so Node 20 needs no
 * experimental JSON-module loader in the gateway.
 */
import { DEFAULT_LOCALE, SUPPORTED_LOCALES, type SupportedLocale } from '../constants.js';
import { ERROR_MESSAGES } from '../error-codes.js';
import type { ErrorTranslation } from './errors/error-translation.js';
import { errorsEn } from './errors/en.js';

const ERROR_TRANSLATION_LOADERS: { readonly [locale in SupportedLocale]: () => Promise<ErrorTranslation> } = {
  [DEFAULT_LOCALE]: () => Promise.resolve(ERROR_MESSAGES),
  // en is en-GB's catalogue with its few American spellings: no request of its own.
  en: () => Promise.resolve(errorsEn),
  de: () => import('./errors/de.js').then((m) => m.errorsDe),
  'fr-CA': () => import('./errors/fr-CA.js').then((m) => m.errorsFrCA),
  es: () => import('./errors/es.js').then((m) => m.errorsEs),
};

/** The `errors` namespace of one supported locale (en-GB's is {@link ERROR_MESSAGES} itself, en's close to it). */
export function loadErrorTranslations(locale: SupportedLocale): Promise<ErrorTranslation> {
  return ERROR_TRANSLATION_LOADERS[locale]();
}

/**
 * The supported locale for a requested tag: exact (case-insensitive) match first, then the same language
 * (`de-AT` → `de`, `fr` → `fr-CA`, `en-US` → `en`); undefined when nothing fits.
 */
export function matchSupportedLocale(tag: string | undefined | null): SupportedLocale | undefined {
  if (!tag) return undefined;
  const wanted = tag.trim().replace(/_/g, '-').toLowerCase();
  if (!wanted || wanted === '*') return undefined;
  const exact = SUPPORTED_LOCALES.find((l) => l.toLowerCase() === wanted);
  if (exact) return exact;
  const language = wanted.split('-')[0];
  // `en` before `en-GB`: a visitor asking for en-US reads the plain English text rather than the British default.
  return (
    SUPPORTED_LOCALES.find((l) => l.toLowerCase() === language) ??
    SUPPORTED_LOCALES.find((l) => l.toLowerCase().split('-')[0] === language)
  );
}

/** The locales of an Accept-Language header, best first (q=0 dropped; RFC 9110 §12.5.4). */
export function parseAcceptLanguage(header: string | undefined | null): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && Number.isFinite(entry.q) && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

/** The `c=` locale of a culture cookie value (`c=de|uic=de`, possibly URL-encoded), if any. */
export function cultureCookieLocale(value: string | undefined | null): string | undefined {
  if (!value) return undefined;
  let decoded = value;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    // a malformed escape: read the raw value
  }
  return /(?:^|\|)c=([^|]*)/.exec(decoded)?.[1] || undefined;
}

/** What a request says about its language, in the order the gateway trusts it. */
export interface LocaleHints {
  /** Value of the `.AspNetCore.Culture` cookie: the visitor's explicit choice. */
  cultureCookie?: string | undefined;
  /** The Accept-Language header (the shell sends its current locale in it). */
  acceptLanguage?: string | undefined;
  /** The `x-default-locale` header: the client's fallback locale. */
  defaultLocaleHeader?: string | undefined;
  /** The default language of the partner whose site is visited. */
  partnerDefault?: string | undefined;
}

/**
 * The first hint that names a supported locale, in the order the gateway trusts them: the culture cookie's `c=` (an
 * explicit choice), Accept-Language (the shell puts its current locale there), `x-default-locale` (the client's
 * fallback), the partner's default. Undefined when none does.
 */
export function pickLocale(hints: LocaleHints): SupportedLocale | undefined {
  const candidates = [
    cultureCookieLocale(hints.cultureCookie),
    ...parseAcceptLanguage(hints.acceptLanguage),
    hints.defaultLocaleHeader,
    hints.partnerDefault,
  ];
  for (const candidate of candidates) {
    const match = matchSupportedLocale(candidate);
    if (match) return match;
  }
  return undefined;
}

/** {@link pickLocale}, or {@link DEFAULT_LOCALE} when no hint names a supported locale. */
export function resolveLocale(hints: LocaleHints): SupportedLocale {
  return pickLocale(hints) ?? DEFAULT_LOCALE;
}
