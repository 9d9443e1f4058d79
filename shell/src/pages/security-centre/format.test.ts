import { describe, expect, it } from 'vitest';
import { formatWhen, textLanguage } from './format';

// 27 November 2026, 09:14 UTC: a day past 12, so day and month cannot be confused.
const AT = Date.UTC(2026, 10, 27, 9, 14);

describe('dates follow the language of the text, not of the layout (issue 49)', () => {
  it.each(['ar', 'ar-EG', 'he', 'fa'])(
    'an untranslated %s page (en-GB text) gets an English date: Western digits, English month',
    (language) => {
      const shown = formatWhen(AT, language);
      expect(shown).toBe(formatWhen(AT, 'en-GB'));
      expect(shown).toMatch(/Nov/);
      expect(shown).not.toMatch(/[\u0660-\u0669\u06F0-\u06F9]/);
    },
  );

  it.each([
    ['de', 'de'],
    ['de-AT', 'de-AT'],
    ['fr-CA', 'fr-CA'],
    ['en-US', 'en-US'],
    ['ar', 'en-GB'],
  ])('a %s page formats in %s', (page, text) => {
    expect(textLanguage(page)).toBe(text);
  });

  it('a translated language keeps its own form', () => {
    expect(formatWhen(AT, 'de')).toMatch(/^27\.11\.2026/);
    expect(formatWhen(AT, 'es')).toMatch(/nov/);
  });
});
