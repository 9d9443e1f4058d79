import { render, type RenderResult } from '@testing-library/react';
import i18next, { type i18n as I18n, type Resource } from 'i18next';
import type { ReactElement } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { configureApiClient } from '../api/client-config.js';
import { createAppStore, type AppStore } from '../api/store.js';
import { DEFAULT_LOCALE } from '../constants.js';
import { ERROR_TRANSLATIONS } from '../locales/index.js';

/** What a component test gives {@link renderWithProviders}; every field has the shell's default. */
export interface ProvidersOptions {
  /**
   * Translations by locale, then namespace (`{ 'en-GB': { 'mfe-login': enGB } }`). The `errors` namespace of every
   * supported locale is added unless given, as the shell provides it to every remote at runtime.
   */
  resources?: Resource;
  /** The namespace `t` reads without a prefix; defaults to the first namespace of the resources. */
  defaultNS?: string;
  /** The language to render in; defaults to en-GB, which is also the fallback as in the shell. */
  lng?: string;
  /** The memory router's location (path, search and hash); defaults to `/`. */
  path?: string;
  /** The store; defaults to a fresh {@link createAppStore} (the base API and the session slice). */
  store?: AppStore;
  /** Answers the account API's calls, for example a stub gateway; the configured `fetch` is kept when absent. */
  fetch?: typeof fetch;
}

/** What {@link renderWithProviders} returns: Testing Library's result, plus the store and i18n it rendered with. */
export interface ProvidersResult extends RenderResult {
  store: AppStore;
  i18n: I18n;
}

/** Resources with the shell's `errors` namespace filled in for every locale that does not bring its own. */
function withErrorNamespace(resources: Resource): Resource {
  const merged: Resource = { ...resources };
  for (const [locale, errors] of Object.entries(ERROR_TRANSLATIONS)) {
    merged[locale] = { errors, ...merged[locale] };
  }
  return merged;
}

/**
 * A fresh i18next instance as the shell builds it: the given namespaces, the `errors` namespace, en-GB fallback,
 * no HTML escaping (React escapes).
 */
export async function createTestI18n(
  options: Pick<ProvidersOptions, 'resources' | 'defaultNS' | 'lng'> = {},
) {
  const resources = withErrorNamespace(options.resources ?? {});
  const namespaces = [...new Set(Object.values(resources).flatMap((bundle) => Object.keys(bundle)))];
  const given = Object.values(options.resources ?? {}).flatMap((bundle) => Object.keys(bundle));
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    lng: options.lng ?? DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    ns: namespaces,
    defaultNS: options.defaultNS ?? given.find((ns) => ns !== 'errors') ?? 'errors',
    resources,
    interpolation: { escapeValue: false },
  });
  return instance;
}

/**
 * Renders a component as the shell would host it: inside the one store (base API included), an i18next instance
 * with the given translations and a memory router at the given path. For component tests of remotes and shell.
 */
export async function renderWithProviders(
  ui: ReactElement,
  options: ProvidersOptions = {},
): Promise<ProvidersResult> {
  if (options.fetch) configureApiClient({ fetch: options.fetch });
  const i18n = await createTestI18n(options);
  const store = options.store ?? createAppStore();
  const result = render(
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[options.path ?? '/']}>{ui}</MemoryRouter>
      </I18nextProvider>
    </Provider>,
  );
  return { ...result, store, i18n };
}
