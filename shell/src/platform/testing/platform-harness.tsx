import { render } from '@testing-library/react';
import i18next, { type i18n as I18n } from 'i18next';
import type { ReactElement } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { Provider } from 'react-redux';
import { DEFAULT_LOCALE } from 'shared-contracts';
import { configureApiClient, createAppStore } from 'shared-contracts/api';
import deCommon from '../../locales/de/common.json';
import enGBCommon from '../../locales/en-GB/common.json';
import enCommon from '../../locales/en/common.json';
import esCommon from '../../locales/es/common.json';
import frCACommon from '../../locales/fr-CA/common.json';

/** The shell's real `common` namespace (the platform's strings live under its `platform` key). */
const COMMON: Record<string, Record<string, unknown>> = {
  'en-GB': enGBCommon,
  en: enCommon,
  de: deCommon,
  'fr-CA': frCACommon,
  es: esCommon,
};

/** One recorded request of {@link renderWithPlatform}'s fetch stub. */
export interface RecordedCall {
  method: string;
  url: string;
}

/** A real i18next instance with the shell's `common` namespace, en-GB fallback like the shell's. */
export async function createTestI18n(lng = DEFAULT_LOCALE): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    lng,
    fallbackLng: DEFAULT_LOCALE,
    ns: ['common'],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    resources: Object.fromEntries(
      Object.entries(COMMON).map(([locale, strings]) => [locale, { common: strings }]),
    ),
  });
  return instance;
}

/** Renders with the real store and i18n; account calls reach a stub that answers 200 `{}` and records them. */
export async function renderWithPlatform(ui: ReactElement, replies: Record<string, unknown> = {}) {
  const calls: RecordedCall[] = [];
  configureApiClient({
    fetch: (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = input instanceof Request ? input.url : input.toString();
      const method = init.method ?? 'GET';
      calls.push({ method, url });
      const key = `${method} ${url.split('?')[0]}`;
      const body = key in replies ? replies[key] : key.endsWith('/Antiforgery') ? { token: 't' } : {};
      return Promise.resolve(
        new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }),
      );
    },
  });
  document.cookie = 'idp.x-csrf-token-value=t; Path=/';
  const i18n = await createTestI18n();
  const store = createAppStore();
  const result = render(
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>{ui}</I18nextProvider>
    </Provider>,
  );
  return { ...result, calls, i18n, store };
}
