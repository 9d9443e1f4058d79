import { useEffect, useState } from 'react';
import { DATE_PICKER_DEBOUNCE_MS } from 'shared-contracts';

/** `value` after it has stopped changing for `delayMs` (SPEC.md §5: date pickers use 300 ms). */
export function useDebouncedValue<T>(value: T, delayMs: number = DATE_PICKER_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}
