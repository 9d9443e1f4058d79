import type { i18n as I18n } from 'i18next';
import { applyDocumentLanguage, isLanguageTag, persistLocale } from './language.js';

/**
 * Switches the interface to `locale`: text through i18next (a locale without translations falls back to en-GB
 * text), `lang`/`dir` on the document (RTL even without translations), and, when `persist` is set, local storage
 * and the culture cookie. `dir` is applied after i18next has switched too, so a `languageChanged` listener that
 * reports the fallback language cannot turn an RTL page back to LTR.
 */
export async function changeLocale(i18n: I18n, locale: string, options: { persist: boolean }): Promise<void> {
  if (!isLanguageTag(locale)) return;
  if (options.persist) persistLocale(locale);
  applyDocumentLanguage(locale);
  if (i18n.language !== locale) await i18n.changeLanguage(locale);
  applyDocumentLanguage(locale);
}
