import { useCallback, useEffect, useRef, type RefObject } from 'react';

/**
 * Where focus goes once an item a person removed from a list has left the page (a passkey deleted, a browser
 * forgotten): the confirmation returned focus to the item's own button, which is then gone, and focus would fall to
 * the start of the document. Returns a ref for the element that takes focus instead (the section's heading, given
 * `tabIndex={-1}`) and `removed(id)`, called when the removal succeeded; focus moves once `ids` no longer holds it.
 */
export function useFocusAfterRemoval<T extends HTMLElement>(
  ids: readonly string[],
): [RefObject<T | null>, (id: string) => void] {
  const target = useRef<T>(null);
  // A ref, not state: noting the removal need not render; the list's own change renders, and the effect then looks.
  const pending = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (pending.current === undefined || ids.includes(pending.current)) return;
    pending.current = undefined;
    target.current?.focus();
  }, [ids]);
  return [
    target,
    useCallback((id: string) => {
      pending.current = id;
    }, []),
  ];
}
