import de from './de.json';
import enGB from './en-GB.json';
import en from './en.json';
import es from './es.json';
import frCA from './fr-CA.json';

/**
 * The platform's strings per locale, each `{ platform: {...} }`, merged into the shell's `common` namespace
 * (keys under `platform` only, so they never collide with the shell's own keys).
 */
export const PLATFORM_LOCALES: Record<string, { platform: Record<string, unknown> }> = {
  'en-GB': enGB,
  en,
  de,
  'fr-CA': frCA,
  es,
};
