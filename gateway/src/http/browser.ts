import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Browser, SessionReader } from '../identity/browser.js';
import { appendSetCookie, readCookie } from '../infra/read-cookie.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';

const browsers = new WeakMap<IncomingMessage, Browser>();
const exchanges = new WeakMap<object, { req: IncomingMessage; res: ServerResponse }>();

/**
 * The identity layer's {@link Browser} port over one request and its response: the same object for every call
 * of one request (the per-request lookups of identity key on it), the session through {@link RequestSessions}.
 */
export function browserOf(sessions: RequestSessions, req: IncomingMessage, res: ServerResponse): Browser {
  const known = browsers.get(req);
  if (known) return known;
  const browser: Browser = {
    lookup: () => sessions.lookup(req),
    current: () => sessions.current(req),
    ensure: () => sessions.ensure(req, res),
    regenerate: (session, data, persistent) => sessions.regenerate(req, res, session, data, persistent),
    end: () => sessions.end(req, res),
    cookie: (name) => readCookie(req, name),
    setCookie: (cookie) => appendSetCookie(res, cookie),
  };
  browsers.set(req, browser);
  exchanges.set(browser, { req, res });
  return browser;
}

/** A read-only view of a request's session (the OIDC side, which has a request but answers nothing itself). */
export function sessionReaderOf(sessions: RequestSessions, req: IncomingMessage): SessionReader {
  return { lookup: () => sessions.lookup(req), current: () => sessions.current(req) };
}

/**
 * The request and response behind a {@link Browser}, for the OIDC side's hooks (oidc-provider reads its own
 * cookies from them). Undefined for a browser this module did not make (unit tests' fakes).
 */
export function exchangeOf(browser: object): { req: IncomingMessage; res: ServerResponse } | undefined {
  return exchanges.get(browser);
}
