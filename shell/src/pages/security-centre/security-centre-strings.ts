import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LOCALE, matchSupportedLocale, type SupportedLocale } from 'shared-contracts';

/** The security centre's i18next namespace: loaded with the page, so the sign-in page never carries its strings. */
export const SECURITY_CENTRE_NS = 'securityCentre';

const LOADERS: Record<SupportedLocale, () => Promise<{ default: Record<string, unknown> }>> = {
  'en-GB': () => import('./locales/en-GB.json'),
  en: () => import('./locales/en.json'),
  de: () => import('./locales/de.json'),
  'fr-CA': () => import('./locales/fr-CA.json'),
  es: () => import('./locales/es.json'),
};

/** Loads the namespace for the page's language (en-GB for a language without translations); true once loaded. */
export function useSecurityCentreStrings(): boolean {
  const { i18n } = useTranslation();
  const locale = matchSupportedLocale(i18n.language) ?? DEFAULT_LOCALE;
  const [loaded, setLoaded] = useState<string | undefined>(undefined);
  const ready = loaded === locale || i18n.hasResourceBundle(locale, SECURITY_CENTRE_NS);
  useEffect(() => {
    if (i18n.hasResourceBundle(locale, SECURITY_CENTRE_NS)) return;
    let live = true;
    void LOADERS[locale]().then(({ default: strings }) => {
      i18n.addResourceBundle(locale, SECURITY_CENTRE_NS, strings, true, false);
      // A language without its own strings shows en-GB's.
      if (locale !== i18n.language)
        i18n.addResourceBundle(i18n.language, SECURITY_CENTRE_NS, strings, true, false);
      if (live) setLoaded(locale);
    });
    return () => {
      live = false;
    };
  }, [i18n, locale]);
  return ready;
}
