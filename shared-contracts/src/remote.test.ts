import { describe, expect, it } from 'vitest';
import { defineRemote, type RemoteLocaleLoaders } from './remote.js';

const load = (locale: string) => () => Promise.resolve({ default: { locale } });
const loaders: RemoteLocaleLoaders = {
  'en-GB': load('en-GB'),
  en: load('en'),
  de: load('de'),
  'fr-CA': load('fr-CA'),
  es: load('es'),
};

describe('defineRemote', () => {
  const remote = defineRemote('mfe-login', [], loaders);

  it.each([
    ['de', 'de'],
    ['de-AT', 'de'],
    ['fr-CA', 'fr-CA'],
    ['en-GB', 'en-GB'],
    ['ar', 'en-GB'],
    ['he-IL', 'en-GB'],
  ])('a request for %s gets %s text', async (requested, shipped) => {
    expect(await remote.loadTranslations(requested)).toEqual({ locale: shipped });
  });
});
