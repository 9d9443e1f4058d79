import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import {
  ANONYMOUS_USER,
  REDIRECT_STATUS,
  exchangeRequestSchema,
  isErrorCode,
  loginRequestSchema,
  logoutRequestSchema,
  logoutViewQuerySchema,
  returnUrlQuerySchema,
  safeReturnUrl,
  type CurrentUser,
  type LoginView,
  type LogoutView,
} from 'shared-contracts';
import type { ZodType } from 'zod';
import type { SessionAuthService } from '../identity/session-auth.service.js';
import type { SignInOutcome, SignInService } from '../identity/sign-in/sign-in.service.js';
import { randomToken, safeEqual } from '../infra/crypto/tokens.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import type { Session } from '../infra/sessions/session-manager.js';
import type { Store } from '../store/store.js';
import type { Antiforgery } from './antiforgery.js';
import { sendFormError, sendSessionTimedOut, sendValidationProblem, zodErrorsMap } from './problem.js';

/** What the OIDC side offers the sign-out calls (see README "OIDC mount interface"). */
export interface OidcLogoutHooks {
  /** For `LogoutView`: whether the user must confirm (no id_token_hint: S32) and which client asked. */
  describeLogout?(
    logoutId: string | undefined,
    req: Request,
    res: Response,
  ): Promise<{ showLogoutPrompt: boolean; clientName?: string | undefined } | undefined>;
  /**
   * For `Logout`: ends the OIDC session, sends back-channel logout; for an RP-initiated sign-out (`logoutId`
   * matched) answers the client's name and its validated post_logout_redirect_uri (+ state).
   */
  endSession?(logoutId: string | undefined, req: Request, res: Response): Promise<EndedSignOut | undefined>;
}

/** What the OIDC side reports after ending its session. */
export interface EndedSignOut {
  clientName?: string | undefined;
  postLogoutRedirectUri?: string | undefined;
}

/** How long the logged-out page may ask for its "Return to <client>" link. */
export const LOGGED_OUT_RECORD_MS = 10 * 60_000;

/** Dependencies of {@link accountRouter}. */
export interface AccountRouterDeps {
  store: Store;
  sessions: RequestSessions;
  antiforgery: Antiforgery;
  signIn: SignInService;
  auth: SessionAuthService;
  oidc?: OidcLogoutHooks | undefined;
  /** Epoch ms (the app's clock). */
  now?: () => number;
}

/** The last path segment names the call: `/api/Account/Login` → "login". */
function callName(req: Request): string {
  return (req.path.split('/').filter(Boolean)[0] ?? '').toLowerCase();
}

/** Parses with a shared schema; on failure answers the 400 errors map and returns undefined. */
function parse<T>(schema: ZodType<T>, value: unknown, res: Response): T | undefined {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  sendValidationProblem(res, zodErrorsMap(result.error, isErrorCode));
  return undefined;
}

/** Wraps an async handler so a rejection reaches the error middleware. */
function handle(fn: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return (req, res, next) => {
    fn(req, res).catch(next);
  };
}

/** 400 `stepNotAllowed` unless the session's pending sign-in waits at `stepId` (for later issues' step calls). */
export function requireSignInStep(
  deps: Pick<AccountRouterDeps, 'sessions' | 'signIn'>,
  stepId: string,
): RequestHandler {
  return (req, res, next) => {
    deps.sessions
      .current(req)
      .then((session) => {
        if (deps.signIn.isAtStep(session, stepId)) next();
        else sendFormError(res, 'stepNotAllowed');
      })
      .catch(next);
  };
}

/**
 * The account API of this issue (SPEC.md §7): Antiforgery, Exchange, User, LoginView, Login, LocalAllowed,
 * IsRemoteAuthentication, LogoutView, Logout, ProfileImage. Mounted under `/api/Account` (case-insensitive), after
 * the anti-forgery check. The query calls answer both GET and POST (SPEC.md §7 says POST unless marked GET).
 */
export function accountRouter(deps: AccountRouterDeps): Router {
  const router = Router();
  const { sessions, antiforgery, signIn, store } = deps;
  const now = deps.now ?? Date.now;

  const returnUrlOf = async (value: unknown): Promise<string> =>
    safeReturnUrl(value, await store.clients.registeredReturnUrls());

  /** Answers a 209 step change with a state bound to the (possibly new) session. */
  function redirect(res: Response, target: string, session: Session): void {
    antiforgery.issue(res, session.id);
    res.status(REDIRECT_STATUS).json({ redirect: target, state: antiforgery.stateFor(session.id) });
  }

  /** The session timed out: a fresh session and token so the retry works, then the protocol's empty 400. */
  async function timedOut(req: Request, res: Response): Promise<void> {
    const session = await sessions.ensure(req, res);
    antiforgery.issue(res, session.id);
    sendSessionTimedOut(res);
  }

  function sendOutcome(res: Response, outcome: SignInOutcome): void {
    switch (outcome.kind) {
      case 'redirect':
        redirect(res, outcome.redirect, outcome.session);
        return;
      case 'invalidCredentials':
        sendFormError(res, 'invalidCredentials');
        return;
      case 'throttled':
        res.set('Retry-After', String(outcome.retryAfterSeconds));
        sendFormError(res, 'tooManyAttempts');
        return;
      case 'unavailable':
        // Fail closed (S8): no sign-in while the throttle's store is down.
        sendFormError(res, 'serviceUnavailable', 503);
        return;
      case 'stepNotAllowed':
        sendFormError(res, 'stepNotAllowed');
    }
  }

  // While a sign-in waits at a step, calls that belong to other steps are refused (S3, S20).
  router.use((req: Request, res: Response, next: NextFunction) => {
    sessions
      .current(req)
      .then((session) => {
        if (signIn.isCallBlocked(session, callName(req))) sendFormError(res, 'stepNotAllowed');
        else next();
      })
      .catch(next);
  });

  /** Registers a query call for GET and POST. */
  const view = (path: string, fn: (req: Request, res: Response) => Promise<void>) => {
    router.get(path, handle(fn));
    router.post(path, handle(fn));
  };

  router.get(
    '/Antiforgery',
    handle(async (req, res) => {
      const session = await sessions.ensure(req, res);
      res.set('Cache-Control', 'no-store');
      res.json({ token: antiforgery.issue(res, session.id) });
    }),
  );

  router.post(
    '/Exchange',
    handle(async (req, res) => {
      const body = parse(exchangeRequestSchema, req.body, res);
      if (!body) return;
      const found = await sessions.lookup(req);
      if (found.kind === 'expired') return timedOut(req, res);
      if (found.kind === 'none') return sendFormError(res, 'antiforgeryInvalid');
      const session = found.session;
      // The state proves the step change happened on this session; a valid header proves it as well.
      if (!antiforgery.isValidState(body.state, session.id) && !antiforgery.verifyRequest(req)) {
        return sendFormError(res, 'antiforgeryInvalid');
      }
      res.set('Cache-Control', 'no-store');
      res.json({ token: antiforgery.issue(res, session.id) });
    }),
  );

  view('/User', async (req, res) => {
    const query = parse(returnUrlQuerySchema, req.query, res);
    if (!query) return;
    const signedIn = await deps.auth.signedInUser(req);
    res.set('Cache-Control', 'no-store');
    if (!signedIn) {
      res.json(ANONYMOUS_USER);
      return;
    }
    const { user, info } = signedIn;
    const body: CurrentUser = {
      isAuthenticated: true,
      subject: user.id,
      userName: user.username,
      displayName: user.displayName,
      ...(user.email ? { email: user.email } : {}),
      roles: user.roles,
      ...(info.customerId ? { customerId: info.customerId } : {}),
    };
    res.json(body);
  });

  view('/LoginView', async (req, res) => {
    const query = parse(returnUrlQuerySchema, req.query, res);
    if (!query) return;
    const session = await sessions.current(req);
    const partner = await store.partners.findForHost(req.hostname);
    const body: LoginView = {
      ...(session?.record.data.username ? { username: session.record.data.username } : {}),
      allowLocal: true,
      showLoginProviders: partner?.showLoginProviders ?? false,
      providers: [],
      returnUrl: await returnUrlOf(query.returnUrl),
      captchaRequired: false,
    };
    res.set('Cache-Control', 'no-store');
    res.json(body);
  });

  router.post(
    '/Login',
    handle(async (req, res) => {
      const body = parse(loginRequestSchema, req.body, res);
      if (!body) return;
      const found = await sessions.lookup(req);
      if (found.kind !== 'active') return timedOut(req, res);
      const query = returnUrlQuerySchema.safeParse(req.query);
      const returnUrl = await returnUrlOf(
        body.returnUrl ?? (query.success ? query.data.returnUrl : undefined),
      );
      const outcome = await signIn.passwordSignIn(req, res, found.session, {
        login: body.username,
        password: body.password,
        rememberMe: body.rememberMe,
        returnUrl,
        ip: req.ip ?? 'unknown',
      });
      sendOutcome(res, outcome);
    }),
  );

  view('/LocalAllowed', (req, res) => {
    // Password sign-in is allowed everywhere for now; vendor-only partners (a later issue) will say false here.
    if (parse(returnUrlQuerySchema, req.query, res)) res.json(true);
    return Promise.resolve();
  });

  view('/IsRemoteAuthentication', async (req, res) => {
    const query = parse(returnUrlQuerySchema, req.query, res);
    if (!query) return;
    const target = await returnUrlOf(query.returnUrl);
    // A sign-in started by an application resumes an OIDC interaction (or an authorize call).
    res.json(/^\/(interaction\/|connect\/authorize)/i.test(target));
  });

  view('/LogoutView', async (req, res) => {
    const query = parse(logoutViewQuerySchema, req.query, res);
    if (!query) return;
    res.set('Cache-Control', 'no-store');
    // After sign-out: the logged-out page asks for the finished sign-out's return link, once, from this browser's
    // own session record (the link never comes from the query).
    const session = await sessions.current(req);
    const finished = session?.record.data.loggedOut;
    if (session && finished && query.logoutId && safeEqual(finished.id, query.logoutId)) {
      delete session.record.data.loggedOut;
      await sessions.save(session);
      if (finished.expiresAt > now()) {
        const body: LogoutView = {
          logoutId: query.logoutId,
          showLogoutPrompt: false,
          loggedOut: true,
          ...(finished.clientName ? { clientName: finished.clientName } : {}),
          postLogoutRedirectUri: finished.postLogoutRedirectUri,
        };
        res.json(body);
        return;
      }
    }
    const signedIn = await deps.auth.getSignedInAccount(req);
    const described = deps.oidc?.describeLogout
      ? await deps.oidc.describeLogout(query.logoutId, req, res)
      : undefined;
    const body: LogoutView = {
      ...(query.logoutId ? { logoutId: query.logoutId } : {}),
      // Without proof from the client (id_token_hint) a signed-in user confirms first (S32).
      showLogoutPrompt: signedIn !== undefined && (described?.showLogoutPrompt ?? true),
      ...(described?.clientName ? { clientName: described.clientName } : {}),
    };
    res.json(body);
  });

  router.post(
    '/Logout',
    handle(async (req, res) => {
      const body = parse(logoutRequestSchema, req.body, res);
      if (!body) return;
      const before = await sessions.lookup(req);
      const account = await deps.auth.getSignedInAccount(req);
      const ended = deps.oidc?.endSession ? await deps.oidc.endSession(body.logoutId, req, res) : undefined;
      const next = await sessions.end(req, res);
      if (account) {
        await store.audit.record({
          at: Date.now(),
          kind: 'sign-out',
          userId: account.accountId,
          ip: req.ip ?? null,
          data: {},
        });
      }
      // The browser always lands on the logged-out page (issue 3); an application's sign-out leaves a short-lived
      // record there for the "Return to <client>" link instead of sending the browser straight back.
      const target = new URLSearchParams();
      if (before.kind === 'expired') target.set('reason', 'inactivity');
      if (ended?.postLogoutRedirectUri) {
        const id = randomToken(16);
        next.record.data.loggedOut = {
          id,
          ...(ended.clientName ? { clientName: ended.clientName } : {}),
          postLogoutRedirectUri: ended.postLogoutRedirectUri,
          expiresAt: now() + LOGGED_OUT_RECORD_MS,
        };
        await sessions.save(next);
        target.set('logoutId', id);
      }
      const search = target.toString();
      redirect(res, `/account/loggedout${search ? `?${search}` : ''}`, next);
    }),
  );

  router.get(
    '/ProfileImage',
    handle(async (req, res) => {
      const signedIn = await deps.auth.signedInUser(req);
      if (!signedIn) {
        sendFormError(res, 'notAuthenticated', 401);
        return;
      }
      const initials = signedIn.user.displayName
        .split(/\s+/)
        .filter(Boolean)
        .slice(0, 2)
        .map((w) => w[0]!.toUpperCase())
        .join('')
        .replace(/[^\p{L}\p{N}]/gu, '');
      res
        .type('image/svg+xml')
        .set('Cache-Control', 'private, no-cache')
        .set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .send(
          `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><circle cx="32" cy="32" r="32" fill="#3d5a80"/><text x="32" y="40" font-family="sans-serif" font-size="24" text-anchor="middle" fill="#fff">${initials}</text></svg>`,
        );
    }),
  );

  router.use((_req, res) => {
    sendFormError(res, 'notFound', 404);
  });
  return router;
}
