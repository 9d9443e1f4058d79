/**
 * One word for SMS in each language (issue 49): the sign-in pages, the set-up wizard, the security centre and the
 * "way in added" mail named one thing three ways ("SMS code", "Text message (SMS)", "Get a code by text message").
 * Each locale now has one term, and the method's name is the same wherever it shows. The locale files are read
 * from the packages that show them (the browser packages cannot read each other's files, the gateway can).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES, type SupportedLocale } from 'shared-contracts';
import { renderMail } from './templates.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Every locale file a person meets the method in, per locale (the mails' and SMS texts included, ADR 0054). */
function localeFiles(locale: SupportedLocale): string[] {
  return [
    `mfe-mfa/src/locales/${locale}.json`,
    `shell/src/pages/security-centre/locales/${locale}.json`,
    `shell/src/locales/${locale}/common.json`,
    `gateway/src/infra/mail/locales/${locale}.json`,
  ];
}

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as unknown;
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

function at(value: unknown, keys: string[]): unknown {
  return keys.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], value);
}

/**
 * The chosen term of each locale and the other names for the same thing it must not use. English says "text
 * message (SMS)" (both words people know, as Google's and Microsoft's English pages do); German and Spanish say
 * "SMS"; Canadian French says "texto".
 */
const TERMS: Record<SupportedLocale, { term: RegExp; others: RegExp[] }> = {
  'en-GB': {
    term: /text message \(SMS\)/i,
    others: [/text message(?! \(SMS\))/i, /(?<!text message \()SMS/i],
  },
  en: { term: /text message \(SMS\)/i, others: [/text message(?! \(SMS\))/i, /(?<!text message \()SMS/i] },
  de: { term: /SMS/, others: [/Textnachricht/i, /Kurznachricht/i] },
  'fr-CA': { term: /texto/i, others: [/message texte/i, /(?<!texto \()SMS/i] },
  es: { term: /SMS/, others: [/mensaje de texto/i, /mensaje corto/i] },
};

/** Words that name the channel in any of the five languages. */
const CHANNEL = /SMS|text message|textnachricht|texto|message texte|mensaje de texto/i;

describe.each(SUPPORTED_LOCALES)('one word for SMS in %s', (locale) => {
  const { term, others } = TERMS[locale];
  const texts = localeFiles(locale).flatMap((file) =>
    strings(readJson(file)).map((text) => ({ file, text })),
  );
  const mail = renderMail('sign-in-method-added', locale, {
    partnerName: 'Acme',
    method: 'sms',
    changedAt: 0,
    userAgent: null,
    link: 'https://id.example/account/',
  });

  it('every text that names the channel uses the chosen term, never another name', () => {
    const naming = [...texts, { file: 'mail: sign-in-method-added', text: mail.text }].filter(({ text }) =>
      CHANNEL.test(text),
    );
    expect(naming.length).toBeGreaterThan(0);
    const offenders = naming.filter(({ text }) => others.some((other) => other.test(text)));
    expect(offenders).toEqual([]);
    expect(mail.text).toMatch(term);
  });

  it('the method has one name on the sign-in pages and in the security centre', () => {
    const signIn = at(readJson(`mfe-mfa/src/locales/${locale}.json`), ['methods', 'sms']);
    const centre = at(readJson(`shell/src/pages/security-centre/locales/${locale}.json`), [
      'twoStep',
      'methods',
      'sms',
    ]);
    expect(signIn).toMatch(term);
    expect(centre).toBe(signIn);
  });
});
