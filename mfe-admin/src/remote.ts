import { defineRemote } from 'shared-contracts';
import { routes } from './routes';

/**
 * The one exposed module of mfe-admin (`./remote`), the operators' console (ADR 0060): its id, its routes and its
 * translations, one chunk per locale loaded with the remote for the language in use (ARCHITECTURE.md: one namespace per remote).
 */
export const remote = defineRemote('mfe-admin', routes, {
  'en-GB': () => import('./locales/en-GB.json'),
  en: () => import('./locales/en.json'),
  de: () => import('./locales/de.json'),
  'fr-CA': () => import('./locales/fr-CA.json'),
  es: () => import('./locales/es.json'),
});
