import type { RemoteModule, RemoteTranslations } from 'shared-contracts';
import { routes } from './routes';

// One chunk per locale, loaded with the remote for the language in use (issue 4: one namespace per remote).
const locales: Record<string, () => Promise<{ default: RemoteTranslations }>> = {
  'en-GB': () => import('./locales/en-GB.json'),
  en: () => import('./locales/en.json'),
  de: () => import('./locales/de.json'),
  'fr-CA': () => import('./locales/fr-CA.json'),
  es: () => import('./locales/es.json'),
};

/** Picks the shipped locale for a requested one: exact, then same language, then en-GB. */
export function shippedLocale(locale: string): string {
  if (locales[locale]) return locale;
  const language = locale.split('-')[0]?.toLowerCase();
  return Object.keys(locales).find((l) => l.toLowerCase() === language) ?? 'en-GB';
}

/** The one exposed module of mfe-mfa (`./remote`): its id, its routes and its translations. */
export const remote: RemoteModule = {
  id: 'mfe-mfa',
  routes,
  loadTranslations: async (locale) => (await locales[shippedLocale(locale)]!()).default,
};
