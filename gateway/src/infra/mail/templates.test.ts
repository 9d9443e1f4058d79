/**
 * The mail catalogue: every kind in every locale names the partner and carries its code or link, the HTML part
 * escapes every value, and a locale the catalogue lacks falls back (its language, else en-GB).
 */
import { SUPPORTED_LOCALES } from 'shared-contracts';
import { describe, expect, it } from 'vitest';
import { MAIL_KINDS, renderMail, type MailKind, type MailParams } from './templates.js';

const PARTNER = 'Müller & <Söhne> "Payroll"';
const PARTNER_HTML = 'Müller &amp; &lt;Söhne&gt; &quot;Payroll&quot;';
const LINK = 'https://id.example.test/account/reset?token=abc&user=42';
const LINK_HTML = 'https://id.example.test/account/reset?token=abc&amp;user=42';

const PARAMS: { [K in MailKind]: MailParams[K] } = {
  recovery: { partnerName: PARTNER, displayName: 'Ann', link: LINK, expiresInMinutes: 30 },
  pin: { partnerName: PARTNER, displayName: 'Ann', pin: '482913', expiresInMinutes: 10 },
  'one-time-token': {
    partnerName: PARTNER,
    displayName: 'Ann',
    code: 'K7Q-4MX',
    link: LINK,
    expiresInMinutes: 15,
  },
  'password-changed': { partnerName: PARTNER, displayName: 'Ann', changedAt: Date.UTC(2025, 2, 4, 8, 30) },
  'email-verification': { partnerName: PARTNER, displayName: 'Ann', code: '771204', expiresInMinutes: 10 },
  'email-change': { partnerName: PARTNER, displayName: 'Ann', link: LINK, expiresInMinutes: 60 },
  'security-change': {
    partnerName: PARTNER,
    displayName: 'Ann',
    change: 'passkey-deleted',
    changedAt: Date.UTC(2025, 2, 4, 8, 30),
  },
  'sign-in-method-added': {
    partnerName: PARTNER,
    displayName: 'Ann',
    method: 'passkey',
    changedAt: Date.UTC(2025, 2, 4, 8, 30),
    userAgent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    link: LINK,
  },
  'email-change-taken': { partnerName: PARTNER, displayName: 'Ann' },
  'account-help': {
    partnerName: PARTNER,
    displayName: 'Ann',
    change: 'second-factor-reset',
    changedAt: Date.UTC(2025, 2, 4, 8, 30),
  },
};

/** What each kind must carry besides the partner's name. */
const PAYLOAD: Record<MailKind, { text: string[]; html: string[] }> = {
  recovery: { text: [LINK, '30'], html: [`href="${LINK_HTML}"`, '30'] },
  pin: { text: ['482913', '10'], html: ['482913', '10'] },
  'one-time-token': { text: ['K7Q-4MX', LINK, '15'], html: ['K7Q-4MX', `href="${LINK_HTML}"`, '15'] },
  'password-changed': { text: ['2025', 'UTC'], html: ['2025', 'UTC'] },
  'email-verification': { text: ['771204', '10'], html: ['771204', '10'] },
  'email-change': { text: [LINK, '60'], html: [`href="${LINK_HTML}"`, '60'] },
  'security-change': { text: ['2025', 'UTC'], html: ['2025', 'UTC'] },
  'sign-in-method-added': {
    text: ['2025', 'UTC', 'Chrome', 'Linux', LINK],
    html: ['2025', 'UTC', 'Chrome', 'Linux', `href="${LINK_HTML}"`],
  },
  // A notice, no link: nothing in it could change the account.
  'email-change-taken': { text: [], html: [] },
  'account-help': { text: ['2025', 'UTC'], html: ['2025', 'UTC'] },
};

// Written out, so a broken or missing translation shows up here as text a person can read.
const RECOVERY_SUBJECTS: Record<(typeof SUPPORTED_LOCALES)[number], string> = {
  'en-GB': `Reset your ${PARTNER} password`,
  en: `Reset your ${PARTNER} password`,
  de: `Passwort für ${PARTNER} zurücksetzen`,
  'fr-CA': `Réinitialisation de votre mot de passe ${PARTNER}`,
  es: `Restablecer la contraseña de ${PARTNER}`,
};

const GREETINGS: Record<(typeof SUPPORTED_LOCALES)[number], string> = {
  'en-GB': 'Hello Ann,',
  en: 'Hi Ann,',
  de: 'Hallo Ann,',
  'fr-CA': 'Bonjour Ann,',
  es: 'Hola, Ann:',
};

describe('renderMail', () => {
  const cases = MAIL_KINDS.flatMap((kind) => SUPPORTED_LOCALES.map((locale) => ({ kind, locale })));

  it.each(cases)('$kind in $locale names the partner and carries its payload', ({ kind, locale }) => {
    const mail = renderMail(kind, locale, PARAMS[kind]);
    expect(mail.locale).toBe(locale);
    expect(mail.subject).toContain(PARTNER);
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.text.startsWith(`${GREETINGS[locale]}\n\n`)).toBe(true);
    expect(mail.text).toContain(PARTNER);
    for (const part of PAYLOAD[kind].text) expect(mail.text).toContain(part);
    expect(mail.html).toContain(`<html lang="${locale}">`);
    expect(mail.html).toContain(PARTNER_HTML);
    for (const part of PAYLOAD[kind].html) expect(mail.html).toContain(part);
    // The raw name never reaches the markup: it would open a <Söhne> element.
    expect(mail.html).not.toContain('<Söhne>');
  });

  it('writes each locale in its own words', () => {
    for (const locale of SUPPORTED_LOCALES)
      expect(renderMail('recovery', locale, PARAMS.recovery).subject).toBe(RECOVERY_SUBJECTS[locale]);
    for (const kind of MAIL_KINDS) {
      const texts = SUPPORTED_LOCALES.map((locale) => renderMail(kind, locale, PARAMS[kind]).text);
      expect(new Set(texts).size).toBe(SUPPORTED_LOCALES.length);
    }
  });

  it.each([
    ['xx', 'en-GB'],
    [undefined, 'en-GB'],
    ['', 'en-GB'],
    ['de-AT', 'de'],
    ['fr', 'fr-CA'],
    ['en-US', 'en'],
    ['ES', 'es'],
  ] as const)('locale %s renders as %s', (asked, used) => {
    const mail = renderMail('pin', asked, PARAMS.pin);
    expect(mail.locale).toBe(used);
    expect(mail.subject).toBe(renderMail('pin', used, PARAMS.pin).subject);
  });

  it('escapes the display name and code in HTML and keeps them plain in the text', () => {
    const mail = renderMail('email-verification', 'en-GB', {
      partnerName: 'Acme',
      displayName: '<img src=x onerror=alert(1)>',
      code: '<b>1</b>',
      expiresInMinutes: 5,
    });
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).toContain('&lt;b&gt;1&lt;/b&gt;');
    expect(mail.html).not.toMatch(/<img|<b>/);
    expect(mail.text).toContain('Hello <img src=x onerror=alert(1)>,');
  });

  it.each(cases)('$kind in $locale escapes a <script> in the names it fills in', ({ kind, locale }) => {
    const script = '<script>alert(1)</script>';
    const mail = renderMail(kind, locale, {
      ...PARAMS[kind],
      partnerName: `Acme ${script}`,
      displayName: `Ann ${script}`,
      // The one mail that names a third party: the provider an administrator named.
      ...(kind === 'sign-in-method-added' ? { method: 'linked-account', provider: `Goo ${script}` } : {}),
    });
    expect(mail.html).not.toContain('<script');
    expect(mail.html).toContain('Ann &lt;script&gt;alert(1)&lt;/script&gt;');
    if (kind === 'sign-in-method-added')
      expect(mail.html).toContain('Goo &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain(`<title>${mail.subject.replace(/</g, '&lt;').replace(/>/g, '&gt;')}</title>`);
    // The text part is plain text: the names as given.
    expect(mail.text).toContain(`Ann ${script}`);
    expect(mail.text).toContain(`Acme ${script}`);
  });

  it('fills a name holding a placeholder as written, never as another value', () => {
    const mail = renderMail('recovery', 'en-GB', { ...PARAMS.recovery, partnerName: 'Acme {{link}}' });
    expect(mail.subject).toBe('Reset your Acme {{link}} password');
  });

  it('greets neutrally without a display name and keeps a partner name on one line', () => {
    const mail = renderMail('pin', 'de', {
      partnerName: 'Acme\r\nBcc: x@evil.test',
      pin: '123456',
      expiresInMinutes: 1,
    });
    expect(mail.text.startsWith('Guten Tag,\n\n')).toBe(true);
    expect(mail.subject).toBe('Ihre Anmelde-PIN für Acme Bcc: x@evil.test');
    expect(mail.text).toContain('1 Minute gültig');
  });

  it.each([
    [
      'recovery',
      { ...PARAMS.recovery, link: 'javascript:alert(1)' },
      /link must be an absolute http\(s\) URL/,
    ],
    ['recovery', { ...PARAMS.recovery, link: '/relative' }, /link must be/],
    ['recovery', { ...PARAMS.recovery, expiresInMinutes: 0 }, /expiresInMinutes/],
    ['pin', { ...PARAMS.pin, pin: '' }, /pin must be/],
    ['pin', { ...PARAMS.pin, pin: '12\n34' }, /pin must be/],
    ['one-time-token', { ...PARAMS['one-time-token'], code: 'x'.repeat(65) }, /code must be/],
    ['password-changed', { ...PARAMS['password-changed'], changedAt: Number.NaN }, /changedAt/],
    ['email-verification', { ...PARAMS['email-verification'], partnerName: ' ' }, /partnerName is required/],
    ['nonsense', PARAMS.pin, /unknown mail kind/],
  ] as const)('refuses bad %s parameters with a clear error', (kind, params, message) => {
    expect(() => renderMail(kind as MailKind, 'en-GB', params as never)).toThrow(message);
  });
});
