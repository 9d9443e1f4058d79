/**
 * Events between the shell and the remotes. Remotes never import the shell; they talk to it through the shared
 * store (RTK Query, slices) and these DOM events on `window`.
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

/** The body the client-error endpoint accepts. */
export interface ClientErrorReport {
  message: string;
  /** "file:line:column" of the first stack frame, when known. */
  source?: string;
  stack?: string;
  url: string;
  /** Which part of the site: "shell" or a remote id. */
  origin?: string;
  kind: 'error' | 'unhandledrejection' | 'boundary' | 'remote-load';
}
