// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import {
  applyDocumentLanguage,
  cultureCookieValue,
  persistLocale,
  readCultureCookie,
  readSavedLocale,
} from './language.js';

beforeEach(() => {
  localStorage.clear();
  document.cookie = '.AspNetCore.Culture=; Max-Age=0; Path=/';
});

describe('locale persistence (SPEC.md §1, §9)', () => {
  it('writes the culture cookie as c=<lng>|uic=<lng> and the locale in local storage', () => {
    persistLocale('fr-CA');
    expect(document.cookie).toContain('.AspNetCore.Culture=c=fr-CA|uic=fr-CA');
    expect(localStorage.getItem('locale')).toBe('fr-CA');
    expect(readCultureCookie()).toBe('fr-CA');
    expect(readSavedLocale()).toBe('fr-CA');
  });

  it.each([
    ['.AspNetCore.Culture=c=de|uic=de', 'de'],
    ['a=1; .AspNetCore.Culture=c%3Dfr-CA%7Cuic%3Dfr-CA; b=2', 'fr-CA'],
    ['.AspNetCore.Culture=uic=es|c=es', 'es'],
    ['.AspNetCore.Culture=c=<script>|uic=x', undefined],
    ['.AspNetCore.Culturex=c=de|uic=de', undefined],
    ['', undefined],
  ])('reads the c= value of %j', (cookie, expected) => {
    expect(readCultureCookie(cookie)).toBe(expected);
  });

  it('refuses to persist something that is not a language tag (no cookie injection)', () => {
    persistLocale('de; Domain=evil.example');
    expect(document.cookie).not.toContain('evil');
    expect(localStorage.getItem('locale')).toBeNull();
    expect(cultureCookieValue('es')).toBe('c=es|uic=es');
  });
});

describe('document direction (SPEC.md §1 RTL list)', () => {
  it.each([
    ['ar', 'rtl'],
    ['he-IL', 'rtl'],
    ['fa', 'rtl'],
    ['yi', 'rtl'],
    ['de', 'ltr'],
    ['fr-CA', 'ltr'],
  ])('%s gives dir=%s and lang set', (locale, dir) => {
    applyDocumentLanguage(locale);
    expect(document.documentElement.dir).toBe(dir);
    expect(document.documentElement.lang).toBe(locale);
  });
});

describe('text without a translation in the chosen language', () => {
  it('is marked en-GB and isolated in an RTL page, and unmarked again for a shipped language', () => {
    applyDocumentLanguage('ar');
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.body.lang).toBe('en-GB');
    expect(document.body.hasAttribute('data-text-fallback')).toBe(true);
    applyDocumentLanguage('de-AT');
    expect(document.body.lang).toBe('');
    expect(document.body.hasAttribute('data-text-fallback')).toBe(false);
  });
});
