// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { applyTheme, readColorScheme, resolveTheme, saveColorScheme } from './theme.js';

function emulateSystem(dark: boolean) {
  window.matchMedia = ((query: string) => ({
    matches: dark && query === '(prefers-color-scheme: dark)',
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  })) as unknown as typeof window.matchMedia;
}

beforeEach(() => {
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});

describe('theme (SPEC.md §1, §9 colour-scheme setting)', () => {
  it.each([
    ['auto', false, 'light'],
    ['auto', true, 'dark'],
    ['dark', false, 'dark'],
    ['light', true, 'light'],
  ] as const)('%s with a dark system %s paints %s', (scheme, dark, expected) => {
    expect(resolveTheme(scheme, dark)).toBe(expected);
    emulateSystem(dark);
    expect(applyTheme(scheme)).toBe(expected);
    expect(document.documentElement.dataset.theme).toBe(expected);
    expect(document.documentElement.dataset.colorScheme).toBe(scheme);
  });

  it('saves the choice under the colour-scheme key and reads it back', () => {
    saveColorScheme('dark');
    expect(localStorage.getItem('color-scheme')).toBe('dark');
    expect(readColorScheme()).toBe('dark');
  });

  it.each(['', 'blue', 'DARK', '<script>'])('reads the unknown saved value %j as auto', (value) => {
    localStorage.setItem('color-scheme', value);
    expect(readColorScheme()).toBe('auto');
  });
});
