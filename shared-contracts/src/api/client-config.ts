import {
  DEFAULT_LOCALE,
  DEFAULT_LOCALE_HEADER,
  REQUESTED_WITH,
  SUPPORTED_LOCALES,
  SUPPORTED_LOCALES_HEADER,
} from '../constants.js';

/** What the API client needs to know about the page, settable by the shell at start-up. */
export interface ApiClientConfig {
  /** The locales the client supports, sent as `x-supported-locales` (SPEC.md §7). */
  supportedLocales: readonly string[];
  /** The default locale, sent as `x-default-locale` (SPEC.md §7). */
  defaultLocale: string;
  /** The locale chosen now, sent as Accept-Language so the server answers in it. */
  currentLocale: () => string;
  /** The `fetch` used for every call (tests pass a stub; the default is the browser's). */
  fetch: typeof fetch;
}

const config: ApiClientConfig = {
  supportedLocales: SUPPORTED_LOCALES,
  defaultLocale: DEFAULT_LOCALE,
  currentLocale: () => DEFAULT_LOCALE,
  fetch: (...args) => globalThis.fetch(...args),
};

/** Changes parts of the API client's configuration (the shell sets the partner's locales and i18next's language). */
export function configureApiClient(changes: Partial<ApiClientConfig>): void {
  Object.assign(config, changes);
}

/** The API client's configuration now. */
export function apiClientConfig(): Readonly<ApiClientConfig> {
  return config;
}

/**
 * The headers every account call sends (SPEC.md §7): Accept, X-Requested-With, x-supported-locales,
 * x-default-locale and Accept-Language. One source for the base query and the anti-forgery fetch, so no call of
 * the site leaves without the locale headers.
 */
export function accountCallHeaders(): Record<string, string> {
  return {
    Accept: 'application/json',
    'X-Requested-With': REQUESTED_WITH,
    [SUPPORTED_LOCALES_HEADER]: config.supportedLocales.join(','),
    [DEFAULT_LOCALE_HEADER]: config.defaultLocale,
    'Accept-Language': config.currentLocale(),
  };
}
