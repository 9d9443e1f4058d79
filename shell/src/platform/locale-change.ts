import type { i18n as I18n } from 'i18next';
import { isLanguageTag } from 'shared-contracts';
import { applyDocumentLanguage, persistLocale } from './language.js';

type LocalePreparer = (locale: string) => Promise<void>;
const preparers = new Set<LocalePreparer>();

/**
 * Registers work that must finish before the interface switches to a locale (the loaded remotes fetch their
 * translations), so every namespace on the page changes language in the same render and none shows en-GB text
 * under a `lang` that names another language. Returns the unregister function.
 */
export function beforeLocaleChange(prepare: LocalePreparer): () => void {
  preparers.add(prepare);
  return () => preparers.delete(prepare);
}

/**
 * Switches the interface to `locale`: text through i18next (a locale without translations falls back to en-GB
 * text), `lang`/`dir` on the document (RTL even without translations), and, when `persist` is set, local storage
 * and the culture cookie. `dir` is applied after i18next has switched too, so a `languageChanged` listener that
 * reports the fallback language cannot turn an RTL page back to LTR.
 */
export async function changeLocale(i18n: I18n, locale: string, options: { persist: boolean }): Promise<void> {
  if (!isLanguageTag(locale)) return;
  if (options.persist) persistLocale(locale);
  if (i18n.language !== locale) {
    // A preparer that fails (a remote's translations unreachable offline) leaves its text in the fallback language.
    await Promise.allSettled([...preparers].map((prepare) => prepare(locale)));
    applyDocumentLanguage(locale);
    await i18n.changeLanguage(locale);
  }
  applyDocumentLanguage(locale);
}
