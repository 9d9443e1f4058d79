import { useCallback, useEffect, useState } from 'react';
import type { ColorScheme } from 'shared-contracts';
import { applyTheme, readColorScheme, saveColorScheme } from './theme.js';

/** The saved colour-scheme choice and a setter that saves and paints it; `auto` follows system changes live. */
export function useColorScheme(): [ColorScheme, (scheme: ColorScheme) => void] {
  const [scheme, setSchemeState] = useState<ColorScheme>(() => readColorScheme());

  // Following the system while `auto` is chosen is PlatformRoot's job (one listener per page).
  useEffect(() => {
    applyTheme(scheme);
  }, [scheme]);

  const setScheme = useCallback((next: ColorScheme) => {
    saveColorScheme(next);
    setSchemeState(next);
  }, []);

  return [scheme, setScheme];
}
