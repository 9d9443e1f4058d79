import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { returnUrlQuerySchema, type ReturnUrlQuery } from 'shared-contracts';
import type { Identity } from '../identity/identity.js';
import { requestContext } from '../infra/request-context.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import type { Antiforgery } from './antiforgery.js';
import { endJson } from './compression.js';
import { loginViewAnswer } from './login.router.js';
import { safeParse } from './plumbing.js';
import { requestIdOf, type RequestLogger } from './request-logger.js';
import { currentUserAnswer } from './session.router.js';

/** What {@link lightCallLane} needs: the services the account API's routers use, and the app's own pieces. */
export interface LightCallDeps {
  sessions: RequestSessions;
  antiforgery: Antiforgery;
  identity: Pick<Identity, 'auth' | 'partners' | 'loginView' | 'signIn' | 'captcha'>;
  /** The app's request prototype (`app.request`): the lane's view of a request has its getters and settings. */
  appRequest: object;
  /** The app's access log (app.ts), which the lane's answers go through as every other answer does. */
  logger: Pick<RequestLogger, 'track'>;
  /** The app's security headers (http/security-headers.ts). */
  securityHeaders: RequestHandler;
}

/** The Express app's own entry (`app.handle`), which the lane hands every request it does not answer. */
export type FullStack = () => void;

/** Serves a request: answers it, or hands it to the full stack before anything is written or remembered. */
export type LightCallLane = (req: IncomingMessage, res: ServerResponse, fullStack: FullStack) => void;

type Answer = (req: Request, query: ReturnUrlQuery) => Promise<unknown>;

/**
 * The light calls a page makes on every load (SPEC.md §7: `User`, `GetPartnerMetaData`, `LoginView`), answered
 * ahead of Express (docs/adr/0027-light-calls.md): app.ts puts the lane in front of the app's own entry, so these
 * requests skip Express's router and its change of the request's and response's prototypes, which together cost
 * more than the answer itself. The answer is the one the account API's routes give, made by the very same
 * functions, with the headers, access log, request counter and audit context every answer of the app gets.
 *
 * The lane answers only the plain successful case and hands everything else to the full stack before it has
 * written or remembered anything, so the two cannot disagree on any refusal: another method or path spelling, a
 * body (the full stack reads and may refuse it), a query the schema refuses, a missing or wrong anti-forgery token
 * (S30), settings not in process yet, a pending sign-in (the gate's deny-by-default), a session that expired
 * (LoginView then issues a fresh one) and any failure while answering.
 */
export function lightCallLane(deps: LightCallDeps): LightCallLane {
  const { sessions, antiforgery, identity, appRequest, logger, securityHeaders } = deps;

  const user: Answer = (req) => currentUserAnswer(identity.auth, sessions, req);
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

  return (req, res, fullStack) => {
    const url = req.url ?? '';
    const at = url.indexOf('?');
    const route = routes.get(at === -1 ? url : url.slice(0, at));
    if (!route || !(req.method === 'POST' || (route.get && req.method === 'GET')) || hasBody(req)) {
      fullStack();
      return;
    }
    const start = Date.now();
    const view = requestView(appRequest, req, res);
    const query = queryOf(view, at === -1 ? '' : url.slice(at));
    if (query === undefined || (req.method === 'POST' && !antiforgery.verifyRequest(view))) {
      fullStack();
      return;
    }
    // The CSP of partners that use reCAPTCHA (app.ts): answered here only while the settings are in process.
    const recaptchaCsp = identity.captcha.peekUsesRecaptcha(view.hostname);
    if (recaptchaCsp === undefined) {
      fullStack();
      return;
    }
    const id = requestIdOf(req);
    const context = { ip: view.ip ?? null, userAgent: req.headers['user-agent'] ?? null, requestId: id };
    requestContext
      .run(context, () => answerIfPlain(view, query, route.answer, sessions, identity))
      .then(
        (body) => {
          if (body === undefined) {
            fullStack();
            return;
          }
          logger.track(view, res, id, start);
          (res as Response).locals = { recaptchaCsp };
          securityHeaders(view, res as Response, noop);
          endJson(req, res, JSON.stringify(body));
        },
        // A failure is the full stack's to answer (its error handler logs it and answers 500).
        () => fullStack(),
      );
  };
}

function noop(): void {}

/** True when a request carries a body or says it has one: the full stack reads it (and may refuse it). */
function hasBody(req: IncomingMessage): boolean {
  const { headers } = req;
  return (
    headers['content-type'] !== undefined ||
    headers['transfer-encoding'] !== undefined ||
    (headers['content-length'] !== undefined && headers['content-length'] !== '0')
  );
}

/**
 * The request as the app's routes see it, without changing the prototype of Node's request (what Express does on
 * entry, and what makes every later property access of Node's HTTP code slower): a new object of the app's request
 * prototype over the same headers, socket, method and URL. `hostname`, `ip`, `get()` and `query` are Express's own,
 * with the app's trust-proxy setting; the cookies read through it are the request's (readCookie keys on the headers).
 */
function requestView(appRequest: object, req: IncomingMessage, res: ServerResponse): Request {
  const view = Object.create(appRequest) as Request;
  view.headers = req.headers;
  view.socket = req.socket;
  view.method = req.method!;
  view.url = req.url!;
  view.res = res as Response;
  return view;
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
function queryOf(req: Request, raw: string): ReturnUrlQuery | undefined {
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
