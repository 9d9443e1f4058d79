import { describe, expect, it } from 'vitest';
import { chooseLocale, isLanguageTag } from './locale-choice.js';
import { parseAcceptLanguage } from './locales/error-translations.js';

const partnerLanguages = [
  { name: 'en-GB', description: 'English (United Kingdom)' },
  { name: 'en', description: 'English (United States)' },
  { name: 'de', description: 'Deutsch' },
  { name: 'fr-CA', description: 'Français (Canada)' },
  { name: 'ar', description: 'العربية' },
];
const partner = { availableLanguages: partnerLanguages, defaultLanguage: 'en-GB' };

describe('choosing the locale', () => {
  it.each([
    [{ saved: 'de', cookie: 'ar' }, 'de'],
    [{ saved: undefined, cookie: 'ar' }, 'ar'],
    [{ saved: 'es', cookie: undefined }, 'en-GB'], // es is not one of this partner's languages
    [{ saved: 'AR', cookie: undefined }, 'ar'],
    [{ saved: 'de; Domain=evil', cookie: 'fr-CA' }, 'fr-CA'],
  ])('%j with the partner languages gives %s', (input, expected) => {
    expect(chooseLocale({ ...input, ...partner })).toBe(expected);
  });

  it.each([
    ['de-DE,de;q=0.9,en;q=0.8', 'de'],
    ['de-AT', 'de'],
    ['en-US,en;q=0.9', 'en'],
    ['fr', 'fr-CA'],
    ['es-ES,de;q=0.5', 'de'], // es is not offered; the next language the browser accepts is
    ['ja,zh-CN;q=0.8', 'en-GB'], // nothing offered: the partner default
    ['de;q=0', 'en-GB'],
  ])('a browser without a choice asking for %s gets %s', (header, expected) => {
    expect(chooseLocale({ ...partner, accepted: parseAcceptLanguage(header) })).toBe(expected);
  });

  it('keeps an explicit choice over the browser language', () => {
    expect(chooseLocale({ ...partner, cookie: 'fr-CA', accepted: ['de-DE'] })).toBe('fr-CA');
  });

  it('matches the shipped locales when the partner lists no languages', () => {
    expect(chooseLocale({ accepted: ['es-MX'] })).toBe('es');
    expect(chooseLocale({ accepted: ['ar'] })).toBe('en-GB');
  });

  it('falls back to the partner default, then en-GB', () => {
    expect(chooseLocale({ availableLanguages: partnerLanguages, defaultLanguage: 'de' })).toBe('de');
    expect(chooseLocale({})).toBe('en-GB');
  });

  it.each([['de'], ['fr-CA'], ['zh-Hant-TW']])('%s is a language tag', (tag) => {
    expect(isLanguageTag(tag)).toBe(true);
  });

  it.each([['de; Domain=evil.example'], [''], ['<script>'], [42]])('%j is not a language tag', (tag) => {
    expect(isLanguageTag(tag)).toBe(false);
  });
});
