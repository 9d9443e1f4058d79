import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import { ACCOUNT_API_BASE, ANTIFORGERY_HEADER } from '../constants.js';
import { guardedActionOf } from '../captcha.schema.js';
import { ERROR_MESSAGES } from '../error-codes.js';
import { returnUrlOf, withReturnUrl } from '../return-url.js';
import { classifyResponse, resolveRedirectTarget, statusMessage, type ApiError } from '../protocol.js';
import { isKnownPage, LOCAL_LOGIN_PATH, LOGIN_PATH, HOME_PATH } from '../routes.js';

/** The signed-out page a sign-out's 209 goes to. */
const LOGGED_OUT_PATH = '/account/loggedout';
import { ensureAntiforgeryToken } from './antiforgery.js';
import { accountCallHeaders, apiClientConfig } from './client-config.js';
import { navigateFull, navigateInApp } from './navigation.js';
import { setTimedOut } from './session.slice.js';

/** Query-string values of a call; `undefined` and `null` are left out. */
export type CallParams = Record<string, string | number | boolean | null | undefined>;

/**
 * One account API call. `url` is the call's name under `/api/Account/` (`"Login"`), or an absolute path for the
 * few calls elsewhere (`/api/ops/...`). A bare string is a POST without body.
 */
export interface AccountCall {
  url: string;
  /** POST unless the call is marked GET in SPEC.md §7. */
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  params?: CallParams;
  body?: unknown;
  /** Accept 401 as a normal response instead of going home (SPEC.md §8: where a call expects it). */
  acceptUnauthorized?: boolean;
  /** Accept 403 as a normal response (SPEC.md §8). */
  acceptForbidden?: boolean;
}

/** What a call resolves to when the server answered 209 and the client followed the redirect (SPEC.md §4). */
export interface RedirectFollowed {
  redirected: true;
  /** The target the server named. */
  redirect: string;
}

/** True when a call's data is a followed redirect rather than the call's own answer. */
export function isRedirectFollowed(data: unknown): data is RedirectFollowed {
  return typeof data === 'object' && data !== null && (data as { redirected?: unknown }).redirected === true;
}

/** The account API's base query type: errors are always an {@link ApiError}. */
export type AccountBaseQuery = BaseQueryFn<string | AccountCall, unknown, ApiError>;

function buildUrl(call: AccountCall): string {
  const path = call.url.startsWith('/') ? call.url : `${ACCOUNT_API_BASE}${call.url}`;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(call.params ?? {})) {
    if (value !== undefined && value !== null) query.set(name, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.length === 0) return null;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** The path (with query and hash) of the page the browser shows now: the returnUrl of timeouts and 401s. */
function currentPath(): string {
  const location = globalThis.location;
  return `${location.pathname}${location.search}${location.hash}`;
}

/** The returnUrl a page carries for its whole journey, or the page itself when it carries none. */
function journeyTarget(url: URL, path: string): string {
  // Sign-in pages and the steps of a pending sign-in carry the target of the whole sign-in: keep it.
  const carriesTarget =
    url.pathname.toLowerCase().startsWith(LOGIN_PATH) ||
    url.searchParams.has('returnUrl') ||
    url.searchParams.has('ReturnUrl');
  return carriesTarget ? returnUrlOf(url.searchParams) : path;
}

/**
 * Where a timed-out session sends the browser (SPEC.md §4): the login page with a returnUrl. On a sign-in page
 * itself the returnUrl it already carries is kept, so the visitor still ends up where they were going.
 */
export function timedOutLoginPath(path: string = currentPath()): string {
  const url = new URL(path, 'http://local.invalid');
  return withReturnUrl(LOGIN_PATH, journeyTarget(url, path));
}

/**
 * Where a 401 sends the browser (SPEC.md §4): home with the current page as returnUrl. A page that already carries a
 * returnUrl passes that one on instead of wrapping it: two calls answered 401 at once (the second one sees the home
 * page the first went to) and a 401 on the home or sign-in page must not nest `/?returnUrl=/?returnUrl=/account/`.
 */
export function unauthorizedHomePath(path: string = currentPath()): string {
  const url = new URL(path, 'http://local.invalid');
  const target = url.pathname === HOME_PATH && !url.search ? HOME_PATH : journeyTarget(url, path);
  return target === HOME_PATH ? HOME_PATH : withReturnUrl(HOME_PATH, target);
}

/**
 * sessionStorage key: this tab has had a sign-in or a signed-in session since it last heard of a timeout — a sign-in
 * step changed (a 209), or User said signed in. Only then is an empty 400 a session that "had timed out"; a sign-in
 * step's page opened cold (`/account/setup-twofactor` typed in a new tab) had nothing to time out. (The sign-in
 * page's own Login meeting a lapsed session is its own case: the form says so from Login's answer.)
 */
export const SESSION_USED_STORAGE_KEY = 'hr-identity.session-used';

/** True when a call's answer is User saying the visitor is signed in. */
function signedInUser(call: AccountCall, body: unknown): boolean {
  return (
    call.url.toLowerCase() === 'user' &&
    typeof body === 'object' &&
    body !== null &&
    (body as { isAuthenticated?: unknown }).isAuthenticated === true
  );
}

function markSessionUsed(used: boolean): void {
  try {
    if (used) globalThis.sessionStorage?.setItem(SESSION_USED_STORAGE_KEY, '1');
    else globalThis.sessionStorage?.removeItem(SESSION_USED_STORAGE_KEY);
  } catch {
    // Storage can throw (privacy modes): then no timed-out greeting rather than a wrong one.
  }
}

function sessionWasUsed(): boolean {
  try {
    return globalThis.sessionStorage?.getItem(SESSION_USED_STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}

function apiError(
  url: string,
  response: Response | undefined,
  body: unknown,
  message: string,
  errors = {},
): ApiError {
  return {
    url,
    status: response?.status ?? 0,
    statusText: response?.statusText ?? '',
    message,
    body,
    errors,
  };
}

/** Follows a 209 (SPEC.md §4): post the state to Exchange for a fresh anti-forgery token, then go to the target. */
async function followRedirect(redirect: string, state: string): Promise<void> {
  const config = apiClientConfig();
  try {
    const token = await ensureAntiforgeryToken(config.fetch);
    const response = await config.fetch(`${ACCOUNT_API_BASE}Exchange`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        ...accountCallHeaders(),
        'Content-Type': 'application/json',
        ...(token ? { [ANTIFORGERY_HEADER]: token } : {}),
      },
      body: JSON.stringify({ state }),
    });
    // Its token arrives as the cookie; the body is read anyway, because one left unread keeps Chromium's request
    // open, holding a connection for as long as the page lives (and 'networkidle' from ever coming).
    await response.text();
  } catch {
    // The next page fetches a token itself when the cookie is missing; the step change must still happen.
  }
  const target = resolveRedirectTarget(redirect, globalThis.location.origin, isKnownPage, LOCAL_LOGIN_PATH);
  switch (target.kind) {
    case 'in-app':
    case 'push':
    case 'via-redirect':
      await navigateInApp(target.path);
      return;
    case 'full':
      navigateFull(target.url);
  }
}

/**
 * The base query of every account call: it alone implements the client protocol of SPEC.md §4, §7 and §8, so no
 * page ever handles statuses itself.
 * - a guarded call (Login, Link, Recover, SendOTP) while a challenge shows: cancelled, never sent;
 * - every call: Accept, X-Requested-With, x-supported-locales, x-default-locale (and Accept-Language);
 * - non-GET: the anti-forgery header, fetching a token first when the cookie is absent;
 * - 200–208 → `{data}`; 209 → Exchange, then navigate, `{data: RedirectFollowed}`;
 * - 400 without errors → timed-out flag (when a session was in use), login page with returnUrl; 400 with errors →
 *   `{error}` with field errors;
 * - 401 → home with returnUrl, never nested (unless accepted), once sent again if another call succeeded meanwhile
 *   (ADR 0065); any other status → `{error}` with the status catalogue message.
 */
export const accountBaseQuery: AccountBaseQuery = (args, api) =>
  sendAccountCall(typeof args === 'string' ? { url: args } : args, api, true);

/**
 * Account calls of this page answered with success so far. A sign-in step or "Confirm it's you" answers with a new
 * session id (S24) and ends the old one; a call the page sent while that answer was on its way carried the old id
 * and is answered 401 though the browser is signed in. So a 401 after another call succeeded meanwhile sends the
 * call once more, with the cookie the browser holds now; a second 401 goes home as any other.
 */
let succeeded = 0;

async function sendAccountCall(
  call: AccountCall,
  api: Parameters<AccountBaseQuery>[1],
  mayResend: boolean,
): Promise<Awaited<ReturnType<AccountBaseQuery>>> {
  const method = call.method ?? 'POST';
  const url = buildUrl(call);
  // While a challenge is in progress the guarded calls are cancelled, not sent (SPEC.md §4 "Captcha"): the page
  // sees the form code the server would answer, and the challenge's success callback sends the call again.
  const captcha = (api.getState() as { captcha?: { show?: boolean } }).captcha;
  if (captcha?.show === true && guardedActionOf(call.url) !== undefined) {
    return {
      error: apiError(url, undefined, null, ERROR_MESSAGES.captchaRequired, { '': ['captchaRequired'] }),
    };
  }
  const config = apiClientConfig();
  const headers = accountCallHeaders();
  if (method !== 'GET') {
    const token = await ensureAntiforgeryToken(config.fetch);
    if (token) headers[ANTIFORGERY_HEADER] = token;
  }
  const init: RequestInit = { method, headers, credentials: 'same-origin', signal: api.signal };
  if (call.body !== undefined && method !== 'GET') {
    if (typeof Blob !== 'undefined' && call.body instanceof Blob) {
      // A file sent as it is, with its own type (UploadPartnerLogo, issue 52), not as JSON.
      headers['Content-Type'] = call.body.type || 'application/octet-stream';
      init.body = call.body;
    } else {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(call.body);
    }
  }

  const succeededBefore = succeeded;
  let response: Response;
  try {
    response = await config.fetch(url, init);
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    return { error: apiError(url, undefined, null, ERROR_MESSAGES.offline) };
  }
  const body = await readBody(response);
  const outcome = classifyResponse(response.status, body, {
    acceptUnauthorized: call.acceptUnauthorized,
    acceptForbidden: call.acceptForbidden,
  });

  switch (outcome.kind) {
    case 'success':
      succeeded += 1;
      if (signedInUser(call, body)) markSessionUsed(true);
      return { data: body };
    case 'redirect': {
      succeeded += 1;
      // A step change uses the session; signing out ends it (nothing of it can time out afterwards).
      markSessionUsed(!outcome.redirect.toLowerCase().startsWith(LOGGED_OUT_PATH));
      await followRedirect(outcome.redirect, outcome.state);
      const data: RedirectFollowed = { redirected: true, redirect: outcome.redirect };
      return { data };
    }
    case 'timeout':
      // Said once, and only when a session in use lapsed (not on a step page opened cold).
      if (sessionWasUsed()) api.dispatch(setTimedOut(true));
      markSessionUsed(false);
      await navigateInApp(timedOutLoginPath());
      return { error: apiError(url, response, body, ERROR_MESSAGES.sessionTimedOut) };
    case 'unauthorized':
      if (mayResend && succeeded > succeededBefore) return sendAccountCall(call, api, false);
      await navigateInApp(unauthorizedHomePath());
      return { error: apiError(url, response, body, statusMessage(401)) };
    case 'validation':
      return { error: apiError(url, response, body, ERROR_MESSAGES.validationFailed, outcome.errors) };
    case 'error':
      return { error: apiError(url, response, body, outcome.message) };
  }
}
