import { useEffect, useRef, type RefObject } from 'react';

/**
 * After a failed submit, puts focus where the problem is, so it is announced and can be fixed at once: the first
 * invalid field of the form (its errors are read with it), else the element `prefer` selects (the emptied password
 * field after a wrong password: the form's alert is new and read out on its own), else the form's alert
 * (role="alert", made focusable). `failure` is the answer of the last attempt (an RTK Query error, say): each new
 * failure moves focus once.
 */
export function useFocusOnFailure<T extends HTMLElement>(
  failure: unknown,
  prefer?: string,
): RefObject<T | null> {
  const container = useRef<T>(null);
  // Read when a failure arrives, not a reason to move focus by itself.
  const preferred = useRef(prefer);
  useEffect(() => {
    preferred.current = prefer;
  }, [prefer]);
  useEffect(() => {
    const root = container.current;
    if (!failure || !root) return;
    const target =
      root.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      (preferred.current ? root.querySelector<HTMLElement>(preferred.current) : null) ??
      root.querySelector<HTMLElement>('[role="alert"]');
    if (!target) return;
    if (target.getAttribute('role') === 'alert' && !target.hasAttribute('tabindex'))
      target.setAttribute('tabindex', '-1');
    target.focus();
  }, [failure]);
  return container;
}
