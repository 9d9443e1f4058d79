import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE } from 'shared-contracts';
import { applyDocumentLanguage } from '../platform';
import { PLATFORM_LOCALES } from '../platform/locales/platform-locales';
import deCommon from '../locales/de/common.json';
import deErrors from '../locales/de/errors.json';
import enGBCommon from '../locales/en-GB/common.json';
import enGBErrors from '../locales/en-GB/errors.json';
import enCommon from '../locales/en/common.json';
import enErrors from '../locales/en/errors.json';
import esCommon from '../locales/es/common.json';
import esErrors from '../locales/es/errors.json';
import frCACommon from '../locales/fr-CA/common.json';
import frCAErrors from '../locales/fr-CA/errors.json';

/** The shell's own namespaces; each remote adds one named after its id. */
export const SHELL_NAMESPACES = ['common', 'errors'] as const;

// The platform's strings live under `common.platform` (see platform/locales/platform-locales.ts).
const resources = {
  'en-GB': { common: { ...enGBCommon, ...PLATFORM_LOCALES['en-GB'] }, errors: enGBErrors },
  en: { common: { ...enCommon, ...PLATFORM_LOCALES.en }, errors: enErrors },
  de: { common: { ...deCommon, ...PLATFORM_LOCALES.de }, errors: deErrors },
  'fr-CA': { common: { ...frCACommon, ...PLATFORM_LOCALES['fr-CA'] }, errors: frCAErrors },
  es: { common: { ...esCommon, ...PLATFORM_LOCALES.es }, errors: esErrors },
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
