import { COLOR_SCHEMES, COLOR_SCHEME_STORAGE_KEY, type ColorScheme } from 'shared-contracts';

/** The theme actually painted: the saved choice with `auto` resolved against the system setting. */
export type ResolvedTheme = 'dark' | 'light';

/** The media query of the system's dark setting. */
export const PREFERS_DARK_QUERY = '(prefers-color-scheme: dark)';

/** Reads the saved colour-scheme choice (SPEC.md §9); anything unknown or unreadable counts as `auto`. */
export function readColorScheme(
  storage: Pick<Storage, 'getItem'> | undefined = safeLocalStorage(),
): ColorScheme {
  let saved: string | null = null;
  try {
    saved = storage?.getItem(COLOR_SCHEME_STORAGE_KEY) ?? null;
  } catch {
    // Storage can throw (disabled cookies, private mode quotas); the system setting then decides.
  }
  return (COLOR_SCHEMES as readonly string[]).includes(saved ?? '') ? (saved as ColorScheme) : 'auto';
}

/** Saves the colour-scheme choice; a storage failure only loses persistence, never the choice itself. */
export function saveColorScheme(
  scheme: ColorScheme,
  storage: Pick<Storage, 'setItem'> | undefined = safeLocalStorage(),
): void {
  try {
    storage?.setItem(COLOR_SCHEME_STORAGE_KEY, scheme);
  } catch {
    // See readColorScheme.
  }
}

/** `auto` follows the system; `dark`/`light` win over it. */
export function resolveTheme(scheme: ColorScheme, systemPrefersDark: boolean): ResolvedTheme {
  if (scheme === 'auto') return systemPrefersDark ? 'dark' : 'light';
  return scheme;
}

/** True when the system asks for dark; false where matchMedia is missing (old browsers, tests). */
export function systemPrefersDark(win: Pick<Window, 'matchMedia'> | undefined = globalThis.window): boolean {
  return typeof win?.matchMedia === 'function' && win.matchMedia(PREFERS_DARK_QUERY).matches;
}

/**
 * Paints the theme: `data-theme` holds the resolved theme (tokens.css keys its dark variables on it),
 * `data-color-scheme` the saved choice, and `color-scheme` tells the browser how to draw form controls and
 * scrollbars. The no-flash script (no-flash.ts) does the same before first paint.
 */
export function applyTheme(scheme: ColorScheme, root: HTMLElement = document.documentElement): ResolvedTheme {
  const theme = resolveTheme(scheme, systemPrefersDark(root.ownerDocument.defaultView ?? undefined));
  root.dataset.theme = theme;
  root.dataset.colorScheme = scheme;
  root.style.colorScheme = theme;
  return theme;
}

/**
 * Keeps an `auto` choice in step with the system setting while the page is open. Returns the unsubscribe
 * function.
 */
export function followSystemTheme(
  getScheme: () => ColorScheme,
  root: HTMLElement = document.documentElement,
): () => void {
  const win = root.ownerDocument.defaultView;
  if (!win || typeof win.matchMedia !== 'function') return () => undefined;
  const query = win.matchMedia(PREFERS_DARK_QUERY);
  const onChange = () => {
    if (getScheme() === 'auto') applyTheme('auto', root);
  };
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** localStorage, or undefined where reading the property itself throws (sandboxed frames). */
export function safeLocalStorage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}
