import type { toast as sonnerToast } from 'sonner';
import { BREAKPOINTS, TOAST_DURATION_MS } from 'shared-contracts';
import { showInlineToast } from './inline-toast-store.js';
import type { ShellToast } from './shell-toast.js';

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

/**
 * A phone's screen: narrower than SPEC.md §9's mobile breakpoint, or a phone held sideways (at most 500 px tall: a
 * landscape phone is 320–430, a tablet's or a laptop's window more), where the sign-in form's fields run down to the
 * bottom corner a toast would float in. shell.css lets the frame end with its content under the same two conditions.
 */
const PHONE_SCREEN = `(max-width: ${BREAKPOINTS.mobile}px), (max-height: 500px)`;

function isPhoneScreen(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(PHONE_SCREEN).matches;
}

/** The sonner id every passing toast shares, so a new one replaces the one shown instead of stacking. */
export const PASSING_TOAST_ID = 'hr-passing-toast';

/**
 * Shows a toast (ADR 0031). On a wider screen it floats in sonner's outlet (SPEC.md §9: bottom right, bottom left in
 * RTL). On a phone the page has no free corner: a floating toast lay over the sign-in form's links, so there it is
 * a line at the end of the page instead ({@link showInlineToast}), which covers nothing and moves nothing; sonner
 * does not load.
 */
export function showToast(shellToast: ShellToast): void {
  if (isPhoneScreen()) {
    showInlineToast(shellToast);
    return;
  }
  const { kind, message, action } = shellToast;
  const duration = shellToast.duration ?? TOAST_DURATION_MS;
  // One passing toast at a time (SPEC.md §9, issue 49): each replaces the one shown, in place. Stacked, sonner fades
  // the text of the toast behind to nothing and back when the front one leaves (400 ms): text caught half faded
  // failed axe's contrast check "after waiting for the toast to go", and people saw a pile. A toast that waits for
  // its action (the update toast) keeps its own id, so a passing one never takes its Reload away.
  const id = shellToast.id ?? (Number.isFinite(duration) && !action ? PASSING_TOAST_ID : undefined);
  withToast((toast) => {
    // A toast that waits for its action cannot be swiped or closed away.
    const options = {
      duration,
      dismissible: Number.isFinite(duration),
      ...(id ? { id } : {}),
      ...(action ? { action } : {}),
    };
    if (kind === 'plain') toast(message, options);
    else toast[kind](message, options);
  });
}
