/**
 * DOM events on `window` the shell listens to: a toast to show, an error to report. Only the shell dispatches them
 * today; a remote that needs them gets them through shared-contracts again (its rule: what two packages use).
 */

/** A remote asks the shell to show a toast. */
export const TOAST_EVENT = 'hr-identity:toast';
/** Detail of {@link TOAST_EVENT}. */
export interface ToastEventDetail {
  kind: 'success' | 'error' | 'info';
  /** Already translated text. */
  message: string;
}

/** A remote (or the base query) reports an error the shell should send to the client-error endpoint. */
export const REPORT_ERROR_EVENT = 'hr-identity:report-error';
/** Detail of {@link REPORT_ERROR_EVENT}. */
export interface ReportErrorEventDetail {
  message: string;
  stack?: string;
  source?: string;
}

/** Dispatches a toast request for the shell. */
export function requestToast(detail: ToastEventDetail): void {
  window.dispatchEvent(new CustomEvent<ToastEventDetail>(TOAST_EVENT, { detail }));
}

/** Dispatches an error report for the shell to send. */
export function reportError(detail: ReportErrorEventDetail): void {
  window.dispatchEvent(new CustomEvent<ReportErrorEventDetail>(REPORT_ERROR_EVENT, { detail }));
}
