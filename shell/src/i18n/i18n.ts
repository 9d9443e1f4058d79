import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, ERROR_TRANSLATIONS } from 'shared-contracts';
import { applyDocumentLanguage } from '../platform/language';
import deCommon from '../locales/de/common.json';
import enGBCommon from '../locales/en-GB/common.json';
import enCommon from '../locales/en/common.json';
import esCommon from '../locales/es/common.json';
import frCACommon from '../locales/fr-CA/common.json';

/** The shell's own namespaces; each remote adds one named after its id. */
export const SHELL_NAMESPACES = ['common', 'errors'] as const;

// `common` holds the platform's strings too (under `platform`); `errors` has one source, shared with the gateway's
// translated 400 answers: ERROR_TRANSLATIONS in shared-contracts.
const resources = {
  'en-GB': { common: enGBCommon, errors: ERROR_TRANSLATIONS['en-GB'] },
  en: { common: enCommon, errors: ERROR_TRANSLATIONS.en },
  de: { common: deCommon, errors: ERROR_TRANSLATIONS.de },
  'fr-CA': { common: frCACommon, errors: ERROR_TRANSLATIONS['fr-CA'] },
  es: { common: esCommon, errors: ERROR_TRANSLATIONS.es },
};

/**
 * Initialises the one i18next instance of the page in `locale`. Text falls back to en-GB for a locale without
 * translations (an RTL partner language still gets `dir="rtl"`).
 */
export async function initI18n(locale: string): Promise<I18n> {
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
  applyDocumentLanguage(locale);
  return i18next;
}
