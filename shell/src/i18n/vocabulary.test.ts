import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, SUPPORTED_LOCALES } from 'shared-contracts';
import { ERROR_TRANSLATIONS } from 'shared-contracts/locales';

// ADR 0038: one word per thing in each locale. Every text a person reads — the shell's namespaces, the security
// centre's strings, every remote, the shared error texts and the gateway's mails and SMS (ADR 0054) — is checked
// against the terms the ADR rules out.
const shellFiles = import.meta.glob<Record<string, unknown>>('../locales/*/*.json', {
  eager: true,
  import: 'default',
});
const centreFiles = import.meta.glob<Record<string, unknown>>('../pages/*/locales/*.json', {
  eager: true,
  import: 'default',
});
const remoteFiles = import.meta.glob<Record<string, unknown>>('../../../mfe-*/src/locales/*.json', {
  eager: true,
  import: 'default',
});
const mailFiles = import.meta.glob<Record<string, unknown>>(
  '../../../gateway/src/infra/mail/locales/*.json',
  {
    eager: true,
    import: 'default',
  },
);

type Locale = (typeof SUPPORTED_LOCALES)[number];

/** Terms ruled out per locale (ADR 0038's table), each with the reason shown when one is found. */
const english: RegExp[] = [
  /\b2FA\b/,
  /two-factor/i,
  /\be-mail/i,
  /\blog(?:ged|ging)? ?(?:in|out)\b/i,
  /\blogin\b/i,
  /secure sign-in/i,
  /security key/i,
  /one-time token/i,
  /CAPS LOCK/,
];
const RULED_OUT: Record<Locale, RegExp[]> = {
  'en-GB': english,
  en: english,
  de: [
    /\b2FA\b/,
    /\bEmail\b/i,
    /Sicherheitsschlüssel/i,
    /\beinloggen\b/i,
    /\bausloggen\b/i,
    /\bLogin\b/,
    /Zwei-Faktor/i,
  ],
  'fr-CA': [/\b2FA\b/, /\be-?mail\b/i, /clé de sécurité/i, /\blogin\b/i, /deux facteurs/i],
  es: [/\b2FA\b/, /\be-?mail\b/i, /llave de seguridad/i, /\blogin\b/i, /dos factores/i],
};

/** Every string of a nested translation object, with its dotted path. */
function texts(value: unknown, prefix = ''): [string, string][] {
  if (typeof value === 'string') return [[prefix, value]];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => texts(child, prefix ? `${prefix}.${key}` : key));
}

/** `{ "<file or bundle>": { locale, json } }` for every source of shown text. */
function sources(): { name: string; locale: string; json: unknown }[] {
  const list: { name: string; locale: string; json: unknown }[] = [];
  for (const [file, json] of Object.entries({
    ...shellFiles,
    ...centreFiles,
    ...remoteFiles,
    ...mailFiles,
  })) {
    const locale = /\/locales\/(?:([^/]+)\/[^/]+|([^/]+))\.json$/.exec(file);
    list.push({ name: file.replace(/^(\.\.\/)+/, ''), locale: (locale?.[1] ?? locale?.[2])!, json });
  }
  for (const [locale, json] of Object.entries(ERROR_TRANSLATIONS))
    list.push({ name: 'errors', locale, json });
  list.push({ name: 'errors (source)', locale: 'en-GB', json: ERROR_MESSAGES });
  return list;
}

describe('one vocabulary (ADR 0038)', () => {
  const all = sources();

  it('reads the shell, the security centre, every remote, the error texts and the mails', () => {
    const names = all.map((s) => s.name).join('\n');
    for (const part of [
      'locales/en-GB/',
      'security-centre/locales/',
      'mfe-login/',
      'mfe-mfa/',
      'errors',
      'gateway/src/infra/mail/locales/en-GB.json',
    ]) {
      expect(names).toContain(part);
    }
  });

  it.each(all.map((s) => [`${s.name} (${s.locale})`, s] as const))(
    '%s uses only the agreed terms',
    (_name, source) => {
      const rules = RULED_OUT[source.locale as Locale] ?? [];
      // Interpolations ({{email}}) are names in code, not words shown.
      const found = texts(source.json).flatMap(([path, text]) =>
        rules
          .filter((rule) => rule.test(text.replace(/\{\{[^}]*\}\}/g, '')))
          .map((rule) => `${path}: "${text}" (${rule.source})`),
      );
      expect(found).toEqual([]);
    },
  );
});
