import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { returnUrlQuerySchema, type ReturnUrlQuery } from 'shared-contracts';
import type { Identity } from '../identity/identity.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import type { Antiforgery } from './antiforgery.js';
import { COMPRESS_MIN_BYTES } from './compression.js';
import { loginViewAnswer } from './login.router.js';
import { safeParse } from './plumbing.js';
import { currentUserAnswer } from './session.router.js';

/** What {@link lightCalls} needs: the same services the account API's routers use. */
export interface LightCallDeps {
  sessions: RequestSessions;
  antiforgery: Antiforgery;
  identity: Pick<Identity, 'auth' | 'partners' | 'loginView' | 'signIn'>;
  /** The API's locale middleware (app.ts `requestLocale`), run as the `/api` mount runs it. */
  locale: RequestHandler;
}

type Answer = (req: Request, query: ReturnUrlQuery) => Promise<unknown>;

/**
 * The light calls a page makes on every load (SPEC.md §7: `User`, `GetPartnerMetaData`, `LoginView`), answered
 * without walking the rest of the app's stack (docs/adr/0027-light-calls.md). Mounted in app.ts right after the
 * security headers, so the access log, audit context, compression and headers are the ones every answer gets;
 * what it skips is the routing through a dozen routers and the middlewares that do nothing for these calls.
 *
 * It answers only the plain successful case, with the very functions the account API's routes call, and hands
 * everything else to the full stack before writing anything: another method or path spelling, a query the schema
 * refuses, a missing or wrong anti-forgery token (S30), a pending sign-in (the gate's deny-by-default), a session
 * that expired (LoginView then issues a fresh one), a body the JSON parser refuses. The full stack then answers as
 * it always has, so the two paths cannot disagree on any refusal.
 */
export function lightCalls(deps: LightCallDeps): RequestHandler {
  const { sessions, antiforgery, identity } = deps;
  const json = express.json({ limit: '64kb' });

  const user: Answer = (req) => currentUserAnswer(identity.auth, req);
  const partnerMetadata: Answer = (req) => identity.partners.metadataForHost(req.hostname);
  const loginView: Answer = async (req, query) => {
    // An expired session gets a fresh one with the page: the full stack's LoginView does that.
    if ((await sessions.lookup(req)).kind === 'expired') return undefined;
    return loginViewAnswer({ sessions, loginView: identity.loginView }, req, query.returnUrl);
  };

  // Exact paths as the pages spell them (the full stack also takes other casings and a trailing slash).
  const routes = new Map<string, { answer: Answer; get: boolean }>([
    ['/api/Account/User', { answer: user, get: true }],
    ['/api/Account/GetPartnerMetaData', { answer: partnerMetadata, get: false }],
    ['/api/Account/LoginView', { answer: loginView, get: true }],
  ]);

  return (req: Request, res: Response, next: NextFunction) => {
    const route = routes.get(req.path);
    if (!route || !(req.method === 'POST' || (route.get && req.method === 'GET'))) return next();
    const query = queryOf(req);
    if (query === undefined) return next();
    if (req.method === 'POST' && !antiforgery.verifyRequest(req)) return next();
    const answer = () => {
      answerIfPlain(req, query, route.answer, sessions, identity).then((body) => {
        if (body === undefined) return next();
        sendAnswer(res, body);
      }, next);
    };
    deps.locale(req, res, () => {
      // The body is read as the full stack reads it; a refused body is the error handler's 400, as there. A POST
      // without a content type (how the pages send these calls: no body) is one the parser passes over untouched.
      if (req.method === 'POST' && req.headers['content-type'] !== undefined)
        json(req, res, (error?: unknown) => (error ? next(error) : answer()));
      else answer();
    });
  };
}

/**
 * Sends a call's answer as the full stack's `res.set('Cache-Control', 'no-store').json(body)` does (same status,
 * headers and bytes; the app sends no ETag), without Express's response helpers: the content type is a constant
 * instead of a MIME lookup and a charset parse, and the string goes straight to `end`. An answer big enough to be
 * compressed goes the helpers' way, through the compression of app.ts.
 */
function sendAnswer(res: Response, body: unknown): void {
  const text = JSON.stringify(body);
  if (text.length >= COMPRESS_MIN_BYTES) {
    res.set('Cache-Control', 'no-store').type('json').send(text);
    return;
  }
  res.statusCode = 200;
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** Parsed queries by their raw text: the same few `?returnUrl=…` arrive on every load. */
const parsedQueries = new Map<string, ReturnUrlQuery | undefined>();
const PARSED_QUERIES_KEPT = 1_000;
const PARSED_QUERY_MAX_LENGTH = 512;

/**
 * The query as the route parses it, or undefined when the schema refuses it (the full stack answers that 400).
 * Parsing is a pure function of the query's raw text, so the answer for a text seen before is reused (frozen: no
 * caller can change what the next one gets); at most {@link PARSED_QUERIES_KEPT} texts of up to
 * {@link PARSED_QUERY_MAX_LENGTH} characters are kept.
 */
function queryOf(req: Request): ReturnUrlQuery | undefined {
  const at = req.url.indexOf('?');
  const raw = at === -1 ? '' : req.url.slice(at);
  if (parsedQueries.has(raw)) return parsedQueries.get(raw);
  const result = safeParse(returnUrlQuerySchema, req.query);
  const query = result.success ? Object.freeze(result.data) : undefined;
  if (raw.length > PARSED_QUERY_MAX_LENGTH) return query;
  if (parsedQueries.size >= PARSED_QUERIES_KEPT) parsedQueries.clear();
  parsedQueries.set(raw, query);
  return query;
}

/** The call's answer when no sign-in is pending on the session (the gate lets such calls through untouched). */
async function answerIfPlain(
  req: Request,
  query: ReturnUrlQuery,
  answer: Answer,
  sessions: RequestSessions,
  identity: Pick<Identity, 'signIn'>,
): Promise<unknown> {
  if (identity.signIn.pendingState(await sessions.current(req)).kind !== 'none') return undefined;
  return answer(req, query);
}
