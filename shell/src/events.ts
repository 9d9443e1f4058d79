/**
 * DOM events on `window` the shell listens to: a toast to show (its contract is in shared-contracts/ui, since the
 * passkey page of mfe-devices sends one too), an error to report.
 */

// The toast request is a contract with the remotes, so it lives in shared-contracts/ui; re-exported for the shell.
export { TOAST_EVENT, requestToast, type ToastEventDetail } from 'shared-contracts/ui';

/** A remote (or the base query) reports an error the shell should send to the client-error endpoint. */
export const REPORT_ERROR_EVENT = 'hr-identity:report-error';
/** Detail of {@link REPORT_ERROR_EVENT}. */
export interface ReportErrorEventDetail {
  message: string;
  stack?: string;
  source?: string;
}

/** Dispatches an error report for the shell to send. */
export function reportError(detail: ReportErrorEventDetail): void {
  window.dispatchEvent(new CustomEvent<ReportErrorEventDetail>(REPORT_ERROR_EVENT, { detail }));
}
