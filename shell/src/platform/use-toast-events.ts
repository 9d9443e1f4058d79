import { useEffect } from 'react';
import { TOAST_EVENT, type ToastEventDetail } from '../events';
import { showToast } from './toast-outlet.js';

/**
 * Shows the toasts remotes ask for with `requestToast` (shared-contracts events): remotes never import the shell
 * or sonner, they dispatch {@link TOAST_EVENT} and the shell's one toast outlet shows it.
 */
export function useToastEvents(): void {
  useEffect(() => {
    const onToast = (event: Event) => {
      const detail = (event as CustomEvent<ToastEventDetail>).detail;
      if (!detail || typeof detail.message !== 'string') return;
      const kind = detail.kind === 'success' || detail.kind === 'error' ? detail.kind : 'info';
      showToast({ kind, message: detail.message });
    };
    window.addEventListener(TOAST_EVENT, onToast);
    return () => window.removeEventListener(TOAST_EVENT, onToast);
  }, []);
}
