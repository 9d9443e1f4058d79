/**
 * `shared-contracts/locales`: the `errors` namespace of every supported locale at once, synchronously, for the
 * gateway's translated 400 answers, build-time renders and tests. The browser takes one locale's with
 * `loadErrorTranslations` from the root instead (a chunk per locale, issue 10).
 */
import type { SupportedLocale } from '../constants.js';
import { ERROR_MESSAGES, parseErrorCode } from '../error-codes.js';
import type { ErrorTranslation } from './errors/error-translation.js';
import { errorsDe } from './errors/de.js';
import { errorsEn } from './errors/en.js';
import { errorsEs } from './errors/es.js';
import { errorsFrCA } from './errors/fr-CA.js';

/** The `errors` namespace of every supported locale; en-GB is {@link ERROR_MESSAGES} itself. */
export const ERROR_TRANSLATIONS: { readonly [locale in SupportedLocale]: ErrorTranslation } = {
  'en-GB': ERROR_MESSAGES,
  en: errorsEn,
  de: errorsDe,
  'fr-CA': errorsFrCA,
  es: errorsEs,
};

/** Text of an encoded error code (`code` or `code|{json}`) in `locale`, values interpolated; unknown text unchanged. */
export function translateErrorCode(value: string, locale: SupportedLocale): string {
  const parsed = parseErrorCode(value);
  if ('text' in parsed) return parsed.text;
  return ERROR_TRANSLATIONS[locale][parsed.code].replace(/\{\{(\w+)\}\}/g, (_, name: string) =>
    String(parsed.values[name] ?? ''),
  );
}
