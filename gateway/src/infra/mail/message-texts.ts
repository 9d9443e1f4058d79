/**
 * The texts of every message the gateway sends — mails and SMS — one JSON file per locale in `./locales`, the way
 * the browser packages keep theirs (ADR 0054). i18next's file format without i18next: nested keys, `{{name}}`
 * placeholders, `_one`/`_other` plural keys; no ICU, no markup. Imported as JSON modules, so `tsc` copies the files
 * into `dist/` beside this module and checks every locale against en-GB's keys.
 */
import { DEFAULT_LOCALE, matchSupportedLocale, type SupportedLocale } from 'shared-contracts';
import de from './locales/de.json' with { type: 'json' };
import enGB from './locales/en-GB.json' with { type: 'json' };
import en from './locales/en.json' with { type: 'json' };
import es from './locales/es.json' with { type: 'json' };
import frCA from './locales/fr-CA.json' with { type: 'json' };

/** One locale's texts; en-GB's file is the source every other locale must match key for key. */
export type MessageTexts = typeof enGB;

/** Every supported locale's texts (the compiler refuses a locale that lacks one of en-GB's keys). */
export const MESSAGE_TEXTS = {
  'en-GB': enGB,
  en,
  de,
  'fr-CA': frCA,
  es,
} satisfies Record<SupportedLocale, MessageTexts>;

/** The texts for an asked locale: the locale itself, else its language (`de-AT` → `de`), else en-GB. */
export function messageTextsFor(locale: string | undefined): {
  locale: SupportedLocale;
  texts: MessageTexts;
} {
  const used = matchSupportedLocale(locale) ?? DEFAULT_LOCALE;
  return { locale: used, texts: MESSAGE_TEXTS[used] };
}

/** What a text's placeholders are filled with. Values are plain text; a renderer escapes them for its medium. */
export type TextValues = Readonly<Record<string, string | number>>;

const PLACEHOLDER = /\{\{\s*([\w-]+)\s*\}\}/g;

/**
 * Fills a text's `{{name}}` placeholders in one pass: a value that itself holds `{{…}}` (a partner or display name)
 * stays as written. A placeholder without a value is a mistake in the code or the locale file, so it throws.
 */
export function interpolate(text: string, values: TextValues): string {
  return text.replace(PLACEHOLDER, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`message text "${text}" has no value for {{${name}}}`);
    return String(value);
  });
}

/** The placeholder names a text uses, in order (for the locale files' tests). */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => match[1]!);
}

/**
 * A counted text (`minutes_one`, `minutes_other`) for `count` in the locale's plural rules, with `{{count}}` filled;
 * a plural category the file does not have (French "many") takes `_other`, as i18next does.
 */
export function counted(
  texts: Readonly<Record<string, string>>,
  key: string,
  locale: SupportedLocale,
  count: number,
): string {
  const text = texts[`${key}_${new Intl.PluralRules(locale).select(count)}`] ?? texts[`${key}_other`];
  if (text === undefined) throw new Error(`message text ${key}_other is missing`);
  return interpolate(text, { count });
}
