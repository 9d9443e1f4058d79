import de from '../../locales/de/common.json';
import enGB from '../../locales/en-GB/common.json';
import en from '../../locales/en/common.json';
import es from '../../locales/es/common.json';
import frCA from '../../locales/fr-CA/common.json';

/**
 * The platform's strings per locale, `{ platform: {...} }`. Their one source is the shell's `common` namespace
 * files (keys under `platform`); this view exists for code that merges them explicitly, and merging it into
 * `common` again changes nothing.
 */
export const PLATFORM_LOCALES = {
  'en-GB': { platform: enGB.platform },
  en: { platform: en.platform },
  de: { platform: de.platform },
  'fr-CA': { platform: frCA.platform },
  es: { platform: es.platform },
} as const;
