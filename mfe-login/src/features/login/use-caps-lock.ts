import { useCallback, useState, type KeyboardEvent } from 'react';

/**
 * Tracks the caps-lock state from key events of one field (SPEC.md §3 "caps-lock flag"). Browsers only report
 * it on key and mouse events, so the warning appears from the first key typed.
 */
export function useCapsLock() {
  const [capsLock, setCapsLock] = useState(false);
  const onKey = useCallback((event: KeyboardEvent<HTMLInputElement>) => {
    // getModifierState is undefined for synthetic events some password managers send.
    if (typeof event.getModifierState === 'function') setCapsLock(event.getModifierState('CapsLock'));
  }, []);
  return { capsLock, onKeyDown: onKey, onKeyUp: onKey };
}
