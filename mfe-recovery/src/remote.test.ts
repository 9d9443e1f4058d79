import { describe, expect, it } from 'vitest';
import { ROUTES, SUPPORTED_LOCALES } from 'shared-contracts';
import { remote, shippedLocale } from './remote';

/** Reads a dotted key of a nested translation object. */
function lookup(translations: Record<string, unknown>, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], translations);
}

describe('the mfe-recovery remote contract', () => {
  const owned = ROUTES.filter((route) => route.owner === 'mfe-recovery');

  it('is mfe-recovery and renders exactly the routes the route table gives it', () => {
    expect(remote.id).toBe('mfe-recovery');
    expect(remote.routes.map((route) => route.path).sort()).toEqual(owned.map((route) => route.path).sort());
  });

  it('loads a page component for every route', async () => {
    for (const route of remote.routes) {
      const page = await route.lazy();
      expect(typeof page.Component, route.path).toBe('function');
    }
  });

  it.each(SUPPORTED_LOCALES)('%s has a title for every page', async (locale) => {
    const translations = await remote.loadTranslations(locale);
    for (const route of owned) expect(typeof lookup(translations, route.titleKey), route.titleKey).toBe('string');
  });

  it('en-GB titles are the route table titles', async () => {
    const translations = await remote.loadTranslations('en-GB');
    for (const route of owned) expect(lookup(translations, route.titleKey)).toBe(route.title);
  });

  it.each([
    ['de', 'de'],
    ['de-AT', 'de'],
    ['fr-CA', 'fr-CA'],
    ['ar', 'en-GB'],
    ['he-IL', 'en-GB'],
  ])('a request for %s gets %s text', (requested, shipped) => {
    expect(shippedLocale(requested)).toBe(shipped);
  });
});
