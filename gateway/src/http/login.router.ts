import { Router, type Request, type RequestHandler } from 'express';
import {
  loginRequestSchema,
  returnUrlOf,
  returnUrlQuerySchema,
  silentLoginRequestSchema,
} from 'shared-contracts';
import { INTERACTION, type LoginViewService } from '../identity/sign-in/login-view.service.js';
import type { ReturnUrls } from '../identity/applications/return-urls.service.js';
import type { SignInService } from '../identity/sign-in/sign-in.service.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import type { Antiforgery } from './antiforgery.js';
import { handle, parse, view } from './plumbing.js';
import type { SignInResponses } from './sign-in-responses.js';
import { browserOf } from './browser.js';
import { readCookie } from '../infra/read-cookie.js';

/** Dependencies of {@link loginRouter}. */
export interface LoginRouterDeps {
  sessions: RequestSessions;
  signIn: SignInService;
  loginView: LoginViewService;
  returnUrls: ReturnUrls;
  responses: SignInResponses;
  antiforgery: Antiforgery;
  /** The captcha check in front of `Login` (captcha.router.ts); absent, Login is guarded by its throttle only. */
  loginGuard?: RequestHandler;
  /** The OIDC side's view of an application's sign-in (SilentLogin); absent, SilentLogin always answers false. */
  describeInteraction?: ((uid: string) => Promise<{ freshSignIn: boolean } | undefined>) | undefined;
  /** Runs a call's writes with one flush at its end (group commit, ADR 0067); absent, each write waits for its own. */
  flushedOnce?: <T>(work: () => Promise<T>) => Promise<T>;
}

/**
 * `LoginView`'s answer for the request's session (the router's route and the light-call dispatcher,
 * http/light-calls.ts).
 */
export async function loginViewAnswer(
  deps: Pick<LoginRouterDeps, 'sessions' | 'loginView'>,
  req: Request,
  returnUrl: string,
) {
  return deps.loginView(await deps.sessions.current(req), req.hostname, returnUrl, {
    browser: { cookie: (name) => readCookie(req, name) },
    ip: req.ip ?? 'unknown',
  });
}

/** Password sign-in (SPEC.md §7 "Sign-in"): LoginView and Login; SilentLogin (§7 "Sign-out", ADR 0020). */
export function loginRouter(deps: LoginRouterDeps): Router {
  const { sessions, signIn, responses } = deps;
  const router = Router();

  view(router, '/LoginView', async (req, res) => {
    const query = parse(returnUrlQuerySchema, req.query, res);
    if (!query) return;
    // A browser whose session ended while nobody was there (idle timeout, a shared computer) gets a fresh session
    // and token with the page, so the next person's first Sign in works instead of meeting "session timed out".
    if ((await sessions.lookup(req)).kind === 'expired') {
      const fresh = await sessions.ensure(req, res);
      deps.antiforgery.issue(res, fresh.id);
    }
    res.set('Cache-Control', 'no-store').json(await loginViewAnswer(deps, req, query.returnUrl));
  });

  router.post(
    '/Login',
    deps.loginGuard ?? ((_req, _res, next) => next()),
    handle(async (req, res) => {
      const body = parse(loginRequestSchema, req.body, res);
      if (!body) return;
      const found = await sessions.lookup(req);
      if (found.kind !== 'active') return responses.timedOut(req, res);
      const returnUrl = await deps.returnUrls.safe(body.returnUrl ?? returnUrlOf(req.query));
      // The new session, its index row and the audit events: one flush for the four commits (ADR 0067).
      const outcome = await (deps.flushedOnce ?? ((work) => work()))(() =>
        signIn.passwordSignIn(browserOf(sessions, req, res), found.session, {
          login: body.username,
          password: body.password,
          rememberMe: body.rememberMe,
          returnUrl,
          ip: req.ip ?? 'unknown',
          platformAuthenticator: body.platformAuthenticator,
        }),
      );
      responses.sendOutcome(res, outcome);
    }),
  );

  // SilentLogin (ADR 0020): the sign-in page of an application's sign-in asks it first. A remembered sign-in of this
  // browser goes on without typing (209 to the application, or to a step that applies again); anything else —
  // no session, a browser-session sign-in (a shared computer), a pending sign-in, a target that is not a live
  // application sign-in, one that demands a fresh sign-in — answers false and the page shows as it would.
  router.post(
    '/SilentLogin',
    handle(async (req, res) => {
      const body = parse(silentLoginRequestSchema, req.body, res);
      if (!body) return;
      res.set('Cache-Control', 'no-store');
      const returnUrl = await deps.returnUrls.safe(body.returnUrl ?? returnUrlOf(req.query));
      const uid = INTERACTION.exec(returnUrl)?.[1];
      const session = await sessions.current(req);
      if (!uid || !session?.record.data.account || !session.record.persistent || !deps.describeInteraction) {
        res.json(false);
        return;
      }
      const interaction = await deps.describeInteraction(uid);
      const outcome =
        interaction && !interaction.freshSignIn
          ? await signIn.silentSignIn(browserOf(sessions, req, res), session, {
              returnUrl,
              ip: req.ip ?? 'unknown',
            })
          : undefined;
      if (!outcome) {
        res.json(false);
        return;
      }
      responses.sendOutcome(res, outcome);
    }),
  );

  return router;
}
