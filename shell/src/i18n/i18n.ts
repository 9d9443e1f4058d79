import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, ERROR_TRANSLATIONS } from 'shared-contracts';
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

/** Adds the `common` strings `locale` shows to i18next, fetching them the first time. */
async function ensureCommon(i18n: I18n, locale: string): Promise<void> {
  const lng = commonLocale(locale);
  if (i18n.hasResourceBundle(lng, 'common')) return;
  const { default: common } = await COMMON[lng]!();
  i18n.addResourceBundle(lng, 'common', common, true, false);
}

/**
 * Initialises the one i18next instance of the page in `locale`. Text falls back to en-GB for a locale without
 * translations (an RTL partner language still gets `dir="rtl"`). `errors` has one source, shared with the gateway's
 * translated 400 answers (ERROR_TRANSLATIONS in shared-contracts, every locale); `common` comes per locale, and a
 * switch of language fetches the new one before the interface changes (beforeLocaleChange).
 */
export async function initI18n(locale: string): Promise<I18n> {
  const lng = commonLocale(locale);
  const { default: common } = await COMMON[lng]!();
  const resources = Object.fromEntries(
    Object.entries(ERROR_TRANSLATIONS).map(([tag, errors]) => [tag, { errors }]),
  ) as Record<string, Record<string, Translations>>;
  resources[lng] = { ...resources[lng], common };
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
  beforeLocaleChange((next) => ensureCommon(i18next, next));
  applyDocumentLanguage(locale);
  return i18next;
}
