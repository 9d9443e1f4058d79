import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  DEFAULT_LOCALE,
  ERROR_MESSAGES,
  loadErrorTranslations,
  type SupportedLocale,
} from 'shared-contracts';
import { beforeLocaleChange } from '../platform/locale-change';
import { applyDocumentLanguage } from '../platform/language';

/** The shell's own namespaces; each remote adds one named after its id. */
export const SHELL_NAMESPACES = ['common', 'errors'] as const;

type Translations = Record<string, unknown>;

// `common` holds the platform's strings too (under `platform`). One chunk per locale, loaded when the page is shown
// in it: a first load fetches one locale's strings, not five (issue 10).
const COMMON: Record<string, () => Promise<{ default: Translations }>> = {
  'en-GB': () => import(/* webpackChunkName: "common-en-GB" */ '../locales/en-GB/common.json'),
  en: () => import(/* webpackChunkName: "common-en" */ '../locales/en/common.json'),
  de: () => import(/* webpackChunkName: "common-de" */ '../locales/de/common.json'),
  'fr-CA': () => import(/* webpackChunkName: "common-fr-CA" */ '../locales/fr-CA/common.json'),
  es: () => import(/* webpackChunkName: "common-es" */ '../locales/es/common.json'),
};

/** The locale whose `common` strings show for `locale`: its own, or en-GB's for a locale without translations. */
function commonLocale(locale: string): string {
  return Object.hasOwn(COMMON, locale) ? locale : DEFAULT_LOCALE;
}

/** The shell's namespaces of `lng` (a locale of {@link COMMON}), fetched together. */
async function loadShellStrings(lng: string): Promise<{ common: Translations; errors: Translations }> {
  const [{ default: common }, errors] = await Promise.all([
    COMMON[lng]!(),
    loadErrorTranslations(lng as SupportedLocale),
  ]);
  return { common, errors };
}

/** Adds the `common` and `errors` strings `locale` shows to i18next, fetching them the first time. */
async function ensureShellStrings(i18n: I18n, locale: string): Promise<void> {
  const lng = commonLocale(locale);
  if (i18n.hasResourceBundle(lng, 'common') && i18n.hasResourceBundle(lng, 'errors')) return;
  const { common, errors } = await loadShellStrings(lng);
  i18n.addResourceBundle(lng, 'common', common, true, false);
  i18n.addResourceBundle(lng, 'errors', errors, true, false);
}

/**
 * Initialises the one i18next instance of the page in `locale`. Text falls back to en-GB for a locale without
 * translations (an RTL partner language still gets `dir="rtl"`). `errors` has one source, shared with the gateway's
 * translated 400 answers (shared-contracts' error translations); both namespaces come per locale (en-GB's errors
 * are always there, as the fallback), and a switch of language fetches the new locale's before the interface
 * changes (beforeLocaleChange).
 */
export async function initI18n(locale: string): Promise<I18n> {
  const lng = commonLocale(locale);
  const { common, errors } = await loadShellStrings(lng);
  const resources: Record<string, Record<string, Translations>> = {
    [DEFAULT_LOCALE]: { errors: ERROR_MESSAGES },
  };
  resources[lng] = { ...resources[lng], common, errors };
  await i18next.use(initReactI18next).init({
    lng: locale,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: false,
    ns: [...SHELL_NAMESPACES],
    defaultNS: 'common',
    resources,
    // React escapes text itself; escaping here would double-escape names such as "Smith & Co".
    interpolation: { escapeValue: false },
  });
  beforeLocaleChange((next) => ensureShellStrings(i18next, next));
  applyDocumentLanguage(locale);
  return i18next;
}
