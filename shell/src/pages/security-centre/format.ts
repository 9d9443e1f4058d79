import { DEFAULT_LOCALE, matchSupportedLocale } from 'shared-contracts';

/**
 * The language the centre's text is in for a page language: the language itself when we ship text for it (`de`,
 * `de-AT`, `en-US`), else en-GB, whose text an untranslated language shows (ADR 0040; the same fallback as
 * `useSecurityCentreStrings`). Dates and numbers follow the text, not the layout (issue 49): an `ar` page shows
 * English text in a right-to-left layout, and a date formatted for `ar` (Arabic-Indic digits, Arabic month names)
 * in the middle of an English sentence could not be read by the person reading the English.
 */
export function textLanguage(pageLanguage: string): string {
  return matchSupportedLocale(pageLanguage) === undefined ? DEFAULT_LOCALE : pageLanguage;
}

/** A date and time in the language of the text around it (see {@link textLanguage}), given the page's language. */
export function formatWhen(at: number, pageLanguage: string): string {
  return new Intl.DateTimeFormat(textLanguage(pageLanguage), {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(at);
}

/** The browser and system a user agent names (one reading with the gateway's mails). */
export { describeUserAgent } from 'shared-contracts';
