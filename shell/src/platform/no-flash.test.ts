// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HELD_SUBMIT_ATTRIBUTE, HELD_SUBMIT_FALLBACK_MS } from 'shared-contracts';
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

describe('a submit of the drawn first paint', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    document.body.innerHTML = '';
    document.documentElement.removeAttribute(HELD_SUBMIT_ATTRIBUTE);
  });

  /** The gateway's drawn page: a root marked as first paint with two forms. */
  function drawnPage(firstPaint: boolean) {
    document.body.innerHTML = `<div id="root" ${firstPaint ? 'data-first-paint=""' : ''}><form></form><form method="post"><input name="username"></form></div>`;
    return document.querySelectorAll('form')[1]!;
  }

  function submit(form: HTMLFormElement): Event {
    const event = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(event);
    return event;
  }

  it('is held for the app while the first paint shows, with the form named by its place', () => {
    const form = drawnPage(true);
    runScript();
    expect(submit(form).defaultPrevented).toBe(true);
    expect(document.documentElement.getAttribute(HELD_SUBMIT_ATTRIBUTE)).toBe('1');
  });

  it('is left alone once the app took over', () => {
    const form = drawnPage(false);
    runScript();
    expect(submit(form).defaultPrevented).toBe(false);
    expect(document.documentElement.hasAttribute(HELD_SUBMIT_ATTRIBUTE)).toBe(false);
  });

  it('goes as a plain post if the app never comes', () => {
    vi.useFakeTimers();
    const form = drawnPage(true);
    const post = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => undefined);
    runScript();
    submit(form);
    vi.advanceTimersByTime(HELD_SUBMIT_FALLBACK_MS - 1);
    expect(post).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(post).toHaveBeenCalledTimes(1);
    expect(document.documentElement.hasAttribute(HELD_SUBMIT_ATTRIBUTE)).toBe(false);
  });
});
