/**
 * The build-time render of mfe-login's first pages (docs/adr/0007-sign-in-first-paint.md): the sign-in page in
 * every locale, inside the shared page frame, from the very components the remote runs. The gateway sends it as
 * the first HTML with the partner's values filled in, so the page is readable and typeable before any script;
 * the shell then takes it over. Run by scripts/first-paint.mjs after the build, never in the browser.
 */
import i18next from 'i18next';
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { findRoute, SUPPORTED_LOCALES, type SupportedLocale } from 'shared-contracts';
import { ERROR_TRANSLATIONS } from 'shared-contracts/locales';
import { createAppStore } from 'shared-contracts/api';
import { BrandBand, SiteFrame, SiteHeader } from 'shared-contracts/ui';
import { FirstPaintApplication, LocalLoginPage, LoginPage } from '../features/login/login-page';
import deTranslations from '../locales/de.json';
import enGbTranslations from '../locales/en-GB.json';
import enTranslations from '../locales/en.json';
import esTranslations from '../locales/es.json';
import frCaTranslations from '../locales/fr-CA.json';

/** Placeholder of the partner's display name; the gateway replaces it with the escaped name. */
export const PARTNER_NAME_SLOT = '__HR_FIRST_PAINT_PARTNER_NAME__';
/** Placeholder of the partner's logo URL; the gateway replaces it with the escaped URL. */
export const PARTNER_LOGO_SLOT = '__HR_FIRST_PAINT_PARTNER_LOGO__';
/** Placeholder of the name of the application a sign-in goes on to; the gateway replaces it with the escaped name. */
export const APPLICATION_NAME_SLOT = '__HR_FIRST_PAINT_APPLICATION_NAME__';

const TRANSLATIONS: Record<SupportedLocale, typeof enGbTranslations> = {
  'en-GB': enGbTranslations,
  en: enTranslations,
  de: deTranslations,
  'fr-CA': frCaTranslations,
  es: esTranslations,
};

/** The pages rendered ahead, by route-table path. */
export const FIRST_PAINT_PAGES: Readonly<Record<string, ComponentType>> = {
  '/account/login': LoginPage,
  '/account/login/local': LocalLoginPage,
};

/**
 * One rendered page: its path, locale, whether it shows a logo and the application line ("to continue to …"), and
 * the markup for the shell's root.
 */
export interface FirstPaintPage {
  path: string;
  locale: SupportedLocale;
  logo: boolean;
  application: boolean;
  html: string;
}

function renderPage(
  path: string,
  Page: ComponentType,
  locale: SupportedLocale,
  logo: boolean,
  application: boolean,
): string {
  const i18n = i18next.createInstance();
  void i18n.use(initReactI18next).init({
    lng: locale,
    fallbackLng: false,
    ns: ['mfe-login', 'errors'],
    defaultNS: 'mfe-login',
    resources: { [locale]: { 'mfe-login': TRANSLATIONS[locale], errors: ERROR_TRANSLATIONS[locale] } },
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  const t = i18n.getFixedT(locale, 'mfe-login');
  const route = findRoute(path);
  if (!route) throw new Error(`${path} is not in the route table`);
  const brand = <BrandBand name={PARTNER_NAME_SLOT} logoUrl={logo ? PARTNER_LOGO_SLOT : undefined} />;
  return renderToString(
    <Provider store={createAppStore()}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[path]}>
          <SiteFrame
            skipLabel={t('firstPaint.skipToContent')}
            layout={route.layout}
            header={<SiteHeader brand={brand} />}
            footer={<footer className="platform-footer" />}
          >
            <FirstPaintApplication.Provider value={application ? APPLICATION_NAME_SLOT : undefined}>
              <Page />
            </FirstPaintApplication.Provider>
          </SiteFrame>
        </MemoryRouter>
      </I18nextProvider>
    </Provider>,
  );
}

/** Every first page in every supported locale, with and without a logo, with and without the application line. */
export function renderFirstPaintPages(): FirstPaintPage[] {
  const pages: FirstPaintPage[] = [];
  for (const [path, Page] of Object.entries(FIRST_PAINT_PAGES)) {
    for (const locale of SUPPORTED_LOCALES) {
      for (const logo of [false, true]) {
        for (const application of [false, true]) {
          pages.push({
            path,
            locale,
            logo,
            application,
            html: renderPage(path, Page, locale, logo, application),
          });
        }
      }
    }
  }
  return pages;
}
