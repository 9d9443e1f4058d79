import { describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '../constants.js';
import { ERROR_MESSAGES } from '../error-codes.js';
import { VALIDATION_PROBLEM_TITLE } from '../protocol.js';
import {
  cultureCookieLocale,
  loadErrorTranslations,
  matchSupportedLocale,
  parseAcceptLanguage,
  resolveLocale,
} from './error-translations.js';
import { ERROR_TRANSLATIONS, translateErrorCode } from './index.js';

describe('loadErrorTranslations', () => {
  it.each(SUPPORTED_LOCALES)("gives %s's texts, the same as ERROR_TRANSLATIONS", async (locale) => {
    expect(await loadErrorTranslations(locale)).toBe(ERROR_TRANSLATIONS[locale]);
  });
});

describe('ERROR_TRANSLATIONS', () => {
  it.each(SUPPORTED_LOCALES)(
    '%s has exactly the codes of ERROR_MESSAGES, each a non-empty text',
    (locale) => {
      const table = ERROR_TRANSLATIONS[locale];
      expect(Object.keys(table).sort()).toEqual(Object.keys(ERROR_MESSAGES).sort());
      for (const text of Object.values(table)) expect(text.trim()).not.toBe('');
    },
  );

  it.each(SUPPORTED_LOCALES)('%s keeps the interpolation placeholders of en-GB', (locale) => {
    for (const [code, text] of Object.entries(ERROR_MESSAGES)) {
      const names = (value: string) => [...value.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      expect(names(ERROR_TRANSLATIONS[locale][code as keyof typeof ERROR_MESSAGES]), code).toEqual(
        names(text),
      );
    }
  });

  it('the en-GB validation title is the protocol title', () => {
    expect(ERROR_MESSAGES.validationProblem).toBe(VALIDATION_PROBLEM_TITLE);
  });
});

describe('locale resolution', () => {
  it.each([
    ['de', 'de'],
    ['DE-at', 'de'],
    ['fr', 'fr-CA'],
    ['fr-FR', 'fr-CA'],
    ['en-US', 'en'],
    ['en_GB', 'en-GB'],
    ['es-MX', 'es'],
    ['ar', undefined],
    ['*', undefined],
    ['', undefined],
  ])('%s → %s', (tag, expected) => {
    expect(matchSupportedLocale(tag)).toBe(expected);
  });

  it('orders Accept-Language by quality and drops q=0', () => {
    expect(parseAcceptLanguage('ar;q=0.9, es;q=0.2, de, fr;q=0')).toEqual(['de', 'ar', 'es']);
  });

  it('reads the c= part of the culture cookie, URL-encoded or not', () => {
    expect(cultureCookieLocale('c=fr-CA|uic=fr-CA')).toBe('fr-CA');
    expect(cultureCookieLocale('c%3Dde%7Cuic%3Dde')).toBe('de');
    expect(cultureCookieLocale('uic=de')).toBeUndefined();
  });

  it('prefers the cookie, then Accept-Language, then x-default-locale, then the partner, then en-GB', () => {
    const all = {
      cultureCookie: 'c=es|uic=es',
      acceptLanguage: 'de',
      defaultLocaleHeader: 'en',
      partnerDefault: 'fr-CA',
    };
    expect(resolveLocale(all)).toBe('es');
    expect(resolveLocale({ ...all, cultureCookie: 'c=xx|uic=xx' })).toBe('de');
    expect(resolveLocale({ ...all, cultureCookie: undefined, acceptLanguage: 'ar, he' })).toBe('en');
    expect(resolveLocale({ partnerDefault: 'fr-CA' })).toBe('fr-CA');
    expect(resolveLocale({})).toBe('en-GB');
  });
});

describe('translateErrorCode', () => {
  it('translates and interpolates; unknown text comes back unchanged', () => {
    expect(translateErrorCode('invalidCredentials', 'de')).toBe('Benutzername oder Passwort ist falsch.');
    expect(translateErrorCode('passwordTooShort|{"n":8}', 'es')).toContain('8');
    expect(translateErrorCode('something else', 'de')).toBe('something else');
  });
});
