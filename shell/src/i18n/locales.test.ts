import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCALE, ERROR_MESSAGES, SUPPORTED_LOCALES } from 'shared-contracts';
import { ERROR_TRANSLATIONS } from 'shared-contracts/locales';

// Every locale file of the shell and of every remote, found by pattern so a new remote is checked too; the `errors`
// namespace comes from shared-contracts (one source with the gateway).
const shellFiles = import.meta.glob<Record<string, unknown>>('../locales/*/*.json', {
  eager: true,
  import: 'default',
});
const remoteFiles = import.meta.glob<Record<string, unknown>>('../../../mfe-*/src/locales/*.json', {
  eager: true,
  import: 'default',
});

/** All dotted key paths of a nested translation object. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keyPaths(child, prefix ? `${prefix}.${key}` : key));
}

/** Groups files as { "<bundle>": { "<locale>": json } } where a bundle is a shell namespace or a remote. */
function bundles(): Record<string, Record<string, unknown>> {
  const result: Record<string, Record<string, unknown>> = {};
  for (const [file, json] of Object.entries(shellFiles)) {
    const [, locale, namespace] = /locales\/([^/]+)\/([^/]+)\.json$/.exec(file)!;
    (result[`shell:${namespace}`] ??= {})[locale!] = json;
  }
  result['shell:errors'] = { ...ERROR_TRANSLATIONS };
  for (const [file, json] of Object.entries(remoteFiles)) {
    const [, remote, locale] = /(mfe-[^/]+)\/src\/locales\/([^/]+)\.json$/.exec(file)!;
    (result[remote!] ??= {})[locale!] = json;
  }
  return result;
}

const all = bundles();

describe('translations', () => {
  it('finds the shell namespaces and every remote', () => {
    expect(Object.keys(all).sort()).toEqual(
      [
        'mfe-admin',
        'mfe-devices',
        'mfe-login',
        'mfe-mfa',
        'mfe-recovery',
        'mfe-tenant',
        'shell:common',
        'shell:errors',
      ].sort(),
    );
  });

  describe.each(Object.entries(all))('%s', (_bundle, locales) => {
    it('ships every supported locale', () => {
      expect(Object.keys(locales).sort()).toEqual([...SUPPORTED_LOCALES].sort());
    });

    it.each(SUPPORTED_LOCALES.filter((l) => l !== DEFAULT_LOCALE))(
      '%s has exactly the keys of en-GB',
      (locale) => {
        const reference = keyPaths(locales[DEFAULT_LOCALE]).sort();
        expect(keyPaths(locales[locale]).sort()).toEqual(reference);
      },
    );

    it.each(SUPPORTED_LOCALES.filter((l) => !l.startsWith('en')))(
      '%s is a translation, not an English copy',
      (locale) => {
        const reference = keyPaths(locales[DEFAULT_LOCALE]);
        const get = (obj: unknown, path: string) =>
          path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], obj);
        const same = reference.filter(
          (path) => get(locales[locale], path) === get(locales[DEFAULT_LOCALE], path),
        );
        // A few words are the same in every language (DevOps, Partner); most text must differ.
        expect(same.length / reference.length).toBeLessThan(0.25);
      },
    );

    it('fr-CA elides with the typographic apostrophe (’), one sign on every page', () => {
      const get = (obj: unknown, path: string) =>
        path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], obj);
      const straight = keyPaths(locales['fr-CA'])
        .map((path) => [path, String(get(locales['fr-CA'], path))])
        .filter(([, text]) => /\p{L}'\p{L}/u.test(text!));
      expect(straight).toEqual([]);
    });
  });

  it('the errors namespace has one key per ERROR_MESSAGES code', () => {
    expect(Object.keys(all['shell:errors']![DEFAULT_LOCALE] as object).sort()).toEqual(
      Object.keys(ERROR_MESSAGES).sort(),
    );
  });
});
