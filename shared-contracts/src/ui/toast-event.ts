/**
 * The toast request a page sends to the shell (SPEC.md §8's success messages: "device registered", "{resource} has
 * been updated", …): a DOM event on `window`, so a remote needs no import of the shell. The shell's one toast
 * outlet listens for it (shell/src/platform/use-toast-events.ts).
 */

/** A page asks the shell to show a toast. */
export const TOAST_EVENT = 'hr-identity:toast';

/** Detail of {@link TOAST_EVENT}. */
export interface ToastEventDetail {
  kind: 'success' | 'error' | 'info';
  /** Already translated text. */
  message: string;
}

/** Dispatches a toast request for the shell. */
export function requestToast(detail: ToastEventDetail): void {
  window.dispatchEvent(new CustomEvent<ToastEventDetail>(TOAST_EVENT, { detail }));
}
