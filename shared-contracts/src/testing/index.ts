// Test helpers the remotes and the shell share (import from `shared-contracts/testing` in a vitest suite).
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '../constants.js';
import type { RemoteId, RemoteModule } from '../remote.js';
import { ROUTES } from '../routes.js';

export {
  createTestI18n,
  renderWithProviders,
  type ProvidersOptions,
  type ProvidersResult,
} from './render-with-providers.js';
export { fieldError, stubGateway, type StubAnswers, type StubCall } from './stub-gateway.js';

/** Reads a dotted key of a nested translation object. */
function lookup(translations: Record<string, unknown>, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], translations);
}

type Tree = { [key: string]: string | Tree };

/** Every string of a nested translation object, as [dotted key, text]. */
function entries(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[prefix + key, value]] : entries(value, `${prefix}${key}.`),
  );
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

/**
 * The remote contract (ARCHITECTURE.md): the remote is `id`, renders exactly the routes the route table gives
 * it, loads a page component for each, and has a title for every page in every shipped locale (en-GB equal to
 * the route table's title), and its translations are complete: every locale has exactly the keys of en-GB, none
 * empty, with the same placeholders, and the other languages are translated rather than copied from English.
 */
export function describeRemoteContract(remote: RemoteModule, id: RemoteId): void {
  describe(`the ${id} remote contract`, () => {
    const owned = ROUTES.filter((route) => route.owner === id);

    it(`is ${id} and renders exactly the routes the route table gives it`, () => {
      expect(remote.id).toBe(id);
      expect(remote.routes.map((route) => route.path).sort()).toEqual(
        owned.map((route) => route.path).sort(),
      );
    });

    it('loads a page component for every route', async () => {
      for (const route of remote.routes) {
        const page = await route.lazy();
        expect(typeof page.Component, route.path).toBe('function');
      }
    });

    it.each(SUPPORTED_LOCALES)('%s has a title for every page', async (locale) => {
      const translations = await remote.loadTranslations(locale);
      for (const route of owned)
        expect(typeof lookup(translations, route.titleKey), route.titleKey).toBe('string');
    });

    it('en-GB titles are the route table titles', async () => {
      const translations = await remote.loadTranslations('en-GB');
      for (const route of owned) expect(lookup(translations, route.titleKey)).toBe(route.title);
    });

    it.each(SUPPORTED_LOCALES.filter((locale) => locale !== 'en-GB'))(
      '%s has exactly the keys of en-GB, none empty, with the same placeholders',
      async (locale) => {
        const source = new Map(entries((await remote.loadTranslations('en-GB')) as Tree));
        const own = new Map(entries((await remote.loadTranslations(locale)) as Tree));
        expect([...own.keys()].sort()).toEqual([...source.keys()].sort());
        for (const [key, text] of own) {
          expect(text.trim(), key).not.toBe('');
          expect(placeholders(text), key).toEqual(placeholders(source.get(key) ?? ''));
        }
      },
    );

    it.each(SUPPORTED_LOCALES.filter((locale) => !locale.startsWith('en')))(
      '%s is translated, not copied from English',
      async (locale) => {
        const source = new Map(entries((await remote.loadTranslations('en-GB')) as Tree));
        const own = entries((await remote.loadTranslations(locale)) as Tree);
        // Names that read the same in every language ("2FA", "OK") may match; sentences may not.
        const copied = own.filter(([key, text]) => source.get(key) === text && text.split(' ').length > 2);
        expect(copied).toEqual([]);
      },
    );
  });
}
