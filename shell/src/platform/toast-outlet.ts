import type { toast as sonnerToast } from 'sonner';

/** sonner's `toast` function, handed over once the outlet is mounted. */
export type ToastApi = typeof sonnerToast;

// sonner (≈17 KB gzip with its stylesheet) is not needed to show the sign-in page, so it loads on the first toast
// request: a request marks the outlet wanted, PlatformToaster then loads and mounts it,
// and the queued calls run once sonner's Toaster is subscribed.
let wanted = false;
const listeners = new Set<() => void>();
let resolveReady: (api: ToastApi) => void = () => undefined;
const ready = new Promise<ToastApi>((resolve) => {
  resolveReady = resolve;
});

/** Subscribes to the outlet being wanted (for `useSyncExternalStore`). */
export function subscribeToastOutlet(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether a toast was requested on this page, so the outlet must be mounted. */
export function isToastOutletWanted(): boolean {
  return wanted;
}

/** Called by the mounted outlet once sonner's Toaster listens; releases the queued toasts. */
export function markToastOutletReady(api: ToastApi): void {
  resolveReady(api);
}

/** Runs `show` with sonner's `toast` once the outlet is mounted, loading it on first use. */
export function withToast(show: (toast: ToastApi) => void): void {
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  void ready.then(show);
}
