import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, {
    attributes: true,
    attributeFilter: ['dir', 'data-theme', 'lang'],
  });
  return () => observer.disconnect();
}

/** The document's direction, following `dir` on `<html>`. */
export function useDocumentDirection(): 'ltr' | 'rtl' {
  return useSyncExternalStore(
    subscribe,
    () => (document.documentElement.dir === 'rtl' ? 'rtl' : 'ltr'),
    () => 'ltr',
  );
}

/** The painted theme, following `data-theme` on `<html>`. */
export function useDocumentTheme(): 'light' | 'dark' {
  return useSyncExternalStore(
    subscribe,
    () => (document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light'),
    () => 'light',
  );
}
