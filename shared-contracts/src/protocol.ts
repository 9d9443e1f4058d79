import { z } from 'zod/mini';
import { ERROR_MESSAGES, type ErrorCode } from './error-codes.js';
import { withReturnUrl } from './return-url.js';

/**
 * The response protocol between the account API and every client (SPEC.md §4, §8).
 */

/** Status of a step change: the body is a {@link RedirectResponse}. */
export const REDIRECT_STATUS = 209;

/** Body of a 209 answer (SPEC.md §3 "Redirect response"). */
export const redirectResponseSchema = z.object({ redirect: z.string(), state: z.string() });
/** Body of a 209 answer. */
export type RedirectResponse = z.infer<typeof redirectResponseSchema>;

/** Map of field name (first letter lower-cased) to its messages; the empty key holds form-level messages. */
export type FieldErrors = Record<string, string[]>;

/** Body of a 400 with field errors (SPEC.md §4). */
export const validationProblemSchema = z.object({
  title: z.optional(z.string()),
  errors: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
});

/** The title every 400 with an errors map carries (SPEC.md §4). */
export const VALIDATION_PROBLEM_TITLE = 'One or more validation errors occurred.';

/** Lower-cases the first letter of a field key, as SPEC.md §4 asks ("UserName" → "userName"). */
export function fieldKey(name: string): string {
  return name.length === 0 ? name : name[0]!.toLowerCase() + name.slice(1);
}

/** Normalises an errors map: keys first-letter lower-cased, every value a list, lists of the same key merged. */
export function normaliseFieldErrors(errors: Record<string, string | readonly string[]>): FieldErrors {
  const result: FieldErrors = {};
  for (const [name, messages] of Object.entries(errors)) {
    const key = fieldKey(name);
    const list = typeof messages === 'string' ? [messages] : [...messages];
    result[key] = [...(result[key] ?? []), ...list];
  }
  return result;
}

/** Status texts of SPEC.md §8, by status, as error codes. */
export const STATUS_CODES: Readonly<Record<number, ErrorCode>> = {
  400: 'badRequest',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'notFound',
  500: 'internalServerError',
  502: 'badGateway',
  503: 'serviceUnavailable',
};

/** The message of SPEC.md §8 for a status ("Generic Error" for any status not in the catalogue). */
export function statusMessage(status: number): string {
  const code = STATUS_CODES[status];
  return code ? ERROR_MESSAGES[code] : ERROR_MESSAGES.genericError;
}

/** An API failure as the client sees it (SPEC.md §3 "API error"). */
export interface ApiError {
  url: string;
  status: number;
  statusText: string;
  /** The status catalogue's message (SPEC.md §8). */
  message: string;
  body: unknown;
  /** Field errors from a 400 errors map, normalised. Empty when there were none. */
  errors: FieldErrors;
}

/** What the client must do with a response (SPEC.md §4, §8). */
export type ResponseOutcome =
  | { kind: 'success' }
  | { kind: 'redirect'; redirect: string; state: string }
  | { kind: 'timeout' }
  | { kind: 'unauthorized' }
  | { kind: 'validation'; errors: FieldErrors }
  | { kind: 'error'; message: string };

function hasErrorsMap(body: unknown): body is { errors: Record<string, string | string[]> } {
  return validationProblemSchema.safeParse(body).success;
}

/**
 * Classifies a response by SPEC.md §4 and §8:
 * - 200–208 success; 209 redirect (with a valid body; otherwise an error);
 * - 400 with an errors map → field errors; 400 without → the session timed out;
 * - 401 → unauthorized (the client goes home with returnUrl), unless `acceptUnauthorized`;
 * - 403 → success when `acceptForbidden` (SPEC.md §8: accepted as normal responses), else an error;
 * - anything else → an error with the catalogue message.
 */
export function classifyResponse(
  status: number,
  body: unknown,
  options: { acceptUnauthorized?: boolean; acceptForbidden?: boolean } = {},
): ResponseOutcome {
  if (status >= 200 && status <= 208) return { kind: 'success' };
  if (status === REDIRECT_STATUS) {
    const parsed = redirectResponseSchema.safeParse(body);
    return parsed.success
      ? { kind: 'redirect', redirect: parsed.data.redirect, state: parsed.data.state }
      : { kind: 'error', message: ERROR_MESSAGES.genericError };
  }
  if (status === 400) {
    return hasErrorsMap(body)
      ? { kind: 'validation', errors: normaliseFieldErrors(body.errors) }
      : { kind: 'timeout' };
  }
  if (status === 401) return options.acceptUnauthorized ? { kind: 'success' } : { kind: 'unauthorized' };
  if (status === 403 && options.acceptForbidden) return { kind: 'success' };
  return { kind: 'error', message: statusMessage(status) };
}

/** Where a 209 redirect target leads (SPEC.md §4). */
export type RedirectTarget =
  | { kind: 'in-app'; path: string }
  | { kind: 'push'; path: string }
  | { kind: 'via-redirect'; path: string }
  | { kind: 'full'; url: string };

/**
 * Same-origin path prefixes the gateway answers itself (API, OIDC provider and its interactions, bundles, ops);
 * never client routes, so the browser must load them in full.
 */
export const SERVER_PATH_PREFIXES: readonly string[] = [
  '/api/',
  '/connect/',
  '/interaction/',
  '/.well-known/',
  '/remotes/',
  '/healthz',
  '/readyz',
  '/metrics',
];

/** True when a same-origin pathname is answered by the gateway itself rather than by the client router. */
export function isServerPath(pathname: string): boolean {
  const lower = pathname.toLowerCase();
  return SERVER_PATH_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/**
 * Decides how the browser follows a 209 redirect (SPEC.md §4): a known client route is navigated in-app; the
 * local sign-in route is pushed directly; other same-origin client paths go through `/redirect?returnUrl=`;
 * anything else (another origin, a server path) is a full page load.
 *
 * @param isKnownRoute - whether a pathname is a page of the route table.
 */
export function resolveRedirectTarget(
  redirect: string,
  origin: string,
  isKnownRoute: (pathname: string) => boolean,
  localLoginPath = '/account/login/local',
): RedirectTarget {
  let url: URL;
  try {
    url = new URL(redirect, origin);
  } catch {
    return { kind: 'full', url: redirect };
  }
  if (url.origin !== new URL(origin).origin) return { kind: 'full', url: url.href };
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (isServerPath(url.pathname)) return { kind: 'full', url: url.href };
  if (url.pathname.toLowerCase() === localLoginPath) return { kind: 'push', path };
  if (isKnownRoute(url.pathname)) return { kind: 'in-app', path };
  return { kind: 'via-redirect', path: withReturnUrl('/redirect', path) };
}
