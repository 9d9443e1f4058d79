import { ANTIFORGERY_HEADER, CLIENT_ERROR_REPORT_PATH, type ClientErrorReportBody } from 'shared-contracts';
import { readAntiforgeryToken } from 'shared-contracts/api';
import { REPORT_ERROR_EVENT, type ReportErrorEventDetail } from '../events';

/** At most this many reports per page load, so a render loop cannot flood the endpoint. */
const MAX_REPORTS_PER_PAGE = 20;
let sent = 0;
const seen = new Set<string>();

/** "file:line:column" of the first stack frame, when the stack has one. */
export function stackPosition(stack: string | undefined): string | undefined {
  if (!stack) return undefined;
  const match = /\(?((?:https?:\/\/|\/)[^\s()]+:\d+:\d+)\)?/.exec(stack);
  return match?.[1];
}

/** Sends one report to the gateway's client-error endpoint; never throws (reporting must not cause errors). */
export function reportClientError(report: Omit<ClientErrorReportBody, 'url'> & { url?: string }): void {
  const key = `${report.kind}|${report.origin ?? ''}|${report.message}`;
  if (seen.has(key) || sent >= MAX_REPORTS_PER_PAGE) return;
  seen.add(key);
  sent += 1;
  const body: ClientErrorReportBody = {
    ...report,
    message: report.message.slice(0, 2000),
    stack: report.stack?.slice(0, 8000),
    source: report.source ?? stackPosition(report.stack),
    url: (report.url ?? window.location.href).slice(0, 2048),
  };
  const token = readAntiforgeryToken();
  void fetch(CLIENT_ERROR_REPORT_PATH, {
    method: 'POST',
    credentials: 'same-origin',
    keepalive: true,
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
      ...(token ? { [ANTIFORGERY_HEADER]: token } : {}),
    },
    body: JSON.stringify(body),
  }).catch(() => undefined);
}

function messageOf(value: unknown): { message: string; stack?: string } {
  if (value instanceof Error) return { message: value.message || value.name, stack: value.stack };
  return { message: typeof value === 'string' ? value : 'Unknown error' };
}

/** Reports unhandled errors and promise rejections, and reports remotes ask for with `reportError`. */
export function installGlobalErrorReporting(): void {
  window.addEventListener('error', (event) => {
    const { message, stack } = messageOf(event.error ?? event.message);
    const source = event.filename ? `${event.filename}:${event.lineno}:${event.colno}` : undefined;
    reportClientError({ kind: 'error', message, stack, source, origin: 'shell' });
  });
  window.addEventListener('unhandledrejection', (event) => {
    const { message, stack } = messageOf(event.reason);
    reportClientError({ kind: 'unhandledrejection', message, stack, origin: 'shell' });
  });
  window.addEventListener(REPORT_ERROR_EVENT, (event) => {
    const detail = (event as CustomEvent<ReportErrorEventDetail>).detail;
    reportClientError({
      kind: 'boundary',
      message: detail.message,
      stack: detail.stack,
      source: detail.source,
    });
  });
}
