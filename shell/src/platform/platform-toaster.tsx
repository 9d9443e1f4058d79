import 'sonner/dist/styles.css';
import { Toaster } from 'sonner';
import { TOAST_DURATION_MS } from 'shared-contracts';

/**
 * The one toast outlet (SPEC.md §9: 2000 ms, bottom right). sonner's stylesheet is also imported as a file so
 * toasts keep their look under a CSP without 'unsafe-inline' styles (sonner injects a <style> too). Direction
 * and theme follow the document so RTL mirrors the toasts and dark mode darkens them.
 */
export function PlatformToaster({ theme, dir }: { theme: 'light' | 'dark'; dir: 'ltr' | 'rtl' }) {
  return (
    <Toaster
      position={dir === 'rtl' ? 'bottom-left' : 'bottom-right'}
      duration={TOAST_DURATION_MS}
      theme={theme}
      dir={dir}
      closeButton
      richColors
    />
  );
}
