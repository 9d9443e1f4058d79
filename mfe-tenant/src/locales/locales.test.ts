import { describe, expect, it } from 'vitest';
import de from './de.json';
import en from './en.json';
import enGB from './en-GB.json';
import es from './es.json';
import frCA from './fr-CA.json';

type Tree = { [key: string]: string | Tree };

function entries(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[prefix + key, value]] : entries(value, `${prefix}${key}.`),
  );
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
const source = new Map(entries(enGB));

describe('mfe-tenant translations (parity)', () => {
  it.each([
    ['en', en],
    ['de', de],
    ['fr-CA', frCA],
    ['es', es],
  ] as const)(
    '%s has exactly the keys of en-GB, none empty, with the same placeholders',
    (_locale, bundle) => {
      const own = new Map(entries(bundle));
      expect([...own.keys()].sort()).toEqual([...source.keys()].sort());
      for (const [key, text] of own) {
        expect(text.trim(), key).not.toBe('');
        expect(placeholders(text), key).toEqual(placeholders(source.get(key)!));
      }
    },
  );

  it.each([
    ['de', de],
    ['fr-CA', frCA],
    ['es', es],
  ] as const)('%s is translated, not copied from English', (_locale, bundle) => {
    const own = new Map(entries(bundle));
    const same = [...own].filter(([key, text]) => source.get(key) === text && !/^\W*$/.test(text));
    // Names that read the same in every language (e.g. "OK") may match; sentences may not.
    expect(same.filter(([, text]) => text.split(' ').length > 2)).toEqual([]);
  });
});
