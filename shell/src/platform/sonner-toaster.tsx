import 'sonner/dist/styles.css';
import { useEffect } from 'react';
import { Toaster, toast } from 'sonner';
import { TOAST_DURATION_MS } from 'shared-contracts';
import { markToastOutletReady } from './toast-outlet.js';

/** Props of {@link SonnerToaster}. */
export interface SonnerToasterProps {
  theme: 'light' | 'dark';
  dir: 'ltr' | 'rtl';
}

/**
 * sonner's outlet for screens wider than a phone (SPEC.md §9: 2000 ms, bottom right; mirrored for RTL). On a phone
 * no corner of the page is free of links and fields, so a phone's toasts are not floated at all: they are lines at
 * the end of the page (InlineToasts, ADR 0031) and this outlet is not loaded for them. Its stylesheet is an extracted
 * file: the shell build strips sonner's injected <style> (build/no-inserted-css.loader.cjs), which the CSP would
 * refuse.
 */
export function SonnerToaster({ theme, dir }: SonnerToasterProps) {
  // Runs after Toaster's own effect (children first), so Toaster already listens when queued toasts are shown.
  useEffect(() => markToastOutletReady(toast), []);
  return (
    <Toaster
      position={dir === 'rtl' ? 'bottom-left' : 'bottom-right'}
      duration={TOAST_DURATION_MS}
      theme={theme}
      dir={dir}
      closeButton
      richColors
      // Only a toast shown on a wider window that is then narrowed to a phone's comes here: above the footer.
      mobileOffset={{ bottom: '4.5rem' }}
    />
  );
}
