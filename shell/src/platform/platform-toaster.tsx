import { useSyncExternalStore } from 'react';
import { onDemand } from './on-demand.js';
import { isToastOutletWanted, subscribeToastOutlet } from './toast-outlet.js';

const SonnerToaster = onDemand('toaster', () =>
  import('./sonner-toaster.js').then((m) => ({ default: m.SonnerToaster })),
);

/**
 * The one toast outlet. sonner and its stylesheet load only when a toast is first requested
 * ({@link withToast}); direction and theme follow the document so RTL mirrors the toasts and dark mode darkens
 * them.
 */
export function PlatformToaster({ theme, dir }: { theme: 'light' | 'dark'; dir: 'ltr' | 'rtl' }) {
  const wanted = useSyncExternalStore(subscribeToastOutlet, isToastOutletWanted, () => false);
  if (!wanted) return null;
  return <SonnerToaster theme={theme} dir={dir} />;
}
