// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { NO_FLASH_SCRIPT } from './no-flash.js';

function emulateSystem(dark: boolean) {
  window.matchMedia = ((query: string) => ({
    matches: dark && query === '(prefers-color-scheme: dark)',
  })) as unknown as typeof window.matchMedia;
}

function runScript() {
  // The script is what index.html inlines; running it as a function is what the browser does.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- evaluating the inline script is the test
  (new Function(NO_FLASH_SCRIPT) as () => void)();
}

beforeEach(() => {
  localStorage.clear();
  document.cookie = '.AspNetCore.Culture=; Max-Age=0; Path=/';
  const root = document.documentElement;
  root.removeAttribute('data-theme');
  root.removeAttribute('lang');
  root.removeAttribute('dir');
});

describe('no-flash inline script', () => {
  it('paints the saved dark choice over a light system', () => {
    emulateSystem(false);
    localStorage.setItem('color-scheme', 'dark');
    runScript();
    expect(document.documentElement.dataset.theme).toBe('dark');
  });

  it.each([
    [true, 'dark'],
    [false, 'light'],
  ])('auto follows a dark system (%s) → %s', (dark, theme) => {
    emulateSystem(dark);
    runScript();
    expect(document.documentElement.dataset.theme).toBe(theme);
    expect(document.documentElement.dataset.colorScheme).toBe('auto');
  });

  it('sets lang and dir=rtl from the saved locale', () => {
    emulateSystem(false);
    localStorage.setItem('locale', 'ar');
    runScript();
    expect(document.documentElement.lang).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
  });

  it('reads the culture cookie when nothing is saved', () => {
    emulateSystem(false);
    document.cookie = '.AspNetCore.Culture=c%3Dhe%7Cuic%3Dhe; Path=/';
    runScript();
    expect(document.documentElement.lang).toBe('he');
    expect(document.documentElement.dir).toBe('rtl');
  });

  it('ignores a saved locale that is not a language tag', () => {
    emulateSystem(false);
    localStorage.setItem('locale', '"><img src=x onerror=alert(1)>');
    runScript();
    expect(document.documentElement.hasAttribute('lang')).toBe(false);
  });

  it('never throws when storage is unavailable', () => {
    const original = Object.getOwnPropertyDescriptor(window, 'localStorage');
    Object.defineProperty(window, 'localStorage', {
      configurable: true,
      get() {
        throw new Error('denied');
      },
    });
    try {
      expect(runScript).not.toThrow();
    } finally {
      Object.defineProperty(window, 'localStorage', original!);
    }
  });

  it('cannot end its own script element', () => {
    expect(NO_FLASH_SCRIPT).not.toMatch(/<\//);
  });
});
