/**
 * The message locale files (ADR 0054): every locale has exactly en-GB's keys, each text the same placeholders as
 * en-GB's, and no markup; placeholders are filled once, and a missing value is an error, never an empty gap.
 */
import { SUPPORTED_LOCALES } from 'shared-contracts';
import { describe, expect, it } from 'vitest';
import { MESSAGE_TEXTS, counted, interpolate, messageTextsFor, placeholdersOf } from './message-texts.js';

/** Every text of a locale file by its dotted key; a value that is neither text nor a group is kept to be refused. */
function flatten(value: unknown, prefix = ''): Map<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return new Map([[prefix, value]]);
  return new Map(
    Object.entries(value).flatMap(([key, child]) => [...flatten(child, prefix ? `${prefix}.${key}` : key)]),
  );
}

const SOURCE = flatten(MESSAGE_TEXTS['en-GB']);

describe('the message locale files', () => {
  it('hold the mails, their layout and the SMS', () => {
    for (const group of ['layout.', 'mail.recovery.', 'mail.sign-in-method-added.methods.', 'sms.'])
      expect([...SOURCE.keys()].some((key) => key.startsWith(group))).toBe(true);
  });

  describe.each(SUPPORTED_LOCALES)('%s', (locale) => {
    const texts = flatten(MESSAGE_TEXTS[locale]);

    it('has every key of en-GB and no other', () => {
      const missing = [...SOURCE.keys()].filter((key) => !texts.has(key));
      const extra = [...texts.keys()].filter((key) => !SOURCE.has(key));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    });

    it('says every text in words, with no markup', () => {
      const bad = [...texts].filter(
        ([, text]) => typeof text !== 'string' || text.trim() === '' || /[<>]/.test(text),
      );
      expect(bad).toEqual([]);
    });

    it('uses the placeholders of en-GB in each text, none missing and none extra', () => {
      const differing = [...SOURCE].flatMap(([key, source]) => {
        const text = texts.get(key);
        if (typeof text !== 'string' || typeof source !== 'string') return [];
        const want = [...new Set(placeholdersOf(source))].sort();
        const have = [...new Set(placeholdersOf(text))].sort();
        return want.join() === have.join() ? [] : [`${key}: ${have.join()} (en-GB: ${want.join()})`];
      });
      expect(differing).toEqual([]);
    });
  });

  it('picks the locale, then its language, then en-GB', () => {
    expect(messageTextsFor('fr-CA').locale).toBe('fr-CA');
    expect(messageTextsFor('de-CH').locale).toBe('de');
    expect(messageTextsFor('pt-BR').locale).toBe('en-GB');
    expect(messageTextsFor(undefined).texts).toBe(MESSAGE_TEXTS['en-GB']);
  });
});

describe('interpolate', () => {
  it('fills every placeholder, spaces inside the braces allowed', () => {
    expect(interpolate('{{code}} for {{ partner }}, {{code}}', { code: 7, partner: 'Acme' })).toBe(
      '7 for Acme, 7',
    );
  });

  it('fills once: a value holding a placeholder stays as written', () => {
    expect(interpolate('Hello {{name}}, {{link}}', { name: '{{link}} $& $1', link: 'https://x.test/' })).toBe(
      'Hello {{link}} $& $1, https://x.test/',
    );
  });

  it('refuses a placeholder without a value rather than leave a gap', () => {
    expect(() => interpolate('Expires in {{minutes}}', { partner: 'Acme' })).toThrow(
      /no value for \{\{minutes\}\}/,
    );
  });
});

describe('counted', () => {
  const minutes = { minutes_one: '{{count}} minute', minutes_other: '{{count}} minutes' };

  it('chooses the plural form by the locale’s rules', () => {
    expect(counted(minutes, 'minutes', 'en-GB', 1)).toBe('1 minute');
    expect(counted(minutes, 'minutes', 'en-GB', 2)).toBe('2 minutes');
  });

  it('takes _other for a category the file lacks (French "many")', () => {
    expect(new Intl.PluralRules('fr-CA').select(1_000_000)).toBe('many');
    expect(counted(minutes, 'minutes', 'fr-CA', 1_000_000)).toBe('1000000 minutes');
  });

  it('says the minutes of every locale in its own words', () => {
    const one = Object.fromEntries(
      SUPPORTED_LOCALES.map((l) => [l, counted(MESSAGE_TEXTS[l].layout, 'minutes', l, 1)]),
    );
    expect(one).toEqual({
      'en-GB': '1 minute',
      en: '1 minute',
      de: '1 Minute',
      'fr-CA': '1 minute',
      es: '1 minuto',
    });
  });
});
