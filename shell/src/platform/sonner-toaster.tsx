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
 * sonner's outlet (SPEC.md §9: 2000 ms, bottom right; mirrored for RTL; above the footer on phones). Its stylesheet is an extracted file: the
 * shell build strips sonner's injected <style> (build/no-inserted-css.loader.cjs), which the CSP would refuse.
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
      // On a phone the toasts sit above the footer, so they never cover its links.
      mobileOffset={{ bottom: '4.5rem' }}
    />
  );
}
