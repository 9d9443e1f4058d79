import { Router, type Request } from 'express';
import { CULTURE_COOKIE, exchangeRequestSchema, returnUrlQuerySchema } from 'shared-contracts';
import type { GatewayConfig } from '../config.js';
import type { Applications } from '../identity/applications/applications.service.js';
import type { PartnerService } from '../identity/partners/partner.service.js';
import { profileImageSvg } from '../identity/account/profile-image.js';
import type { ReturnUrls } from '../identity/applications/return-urls.service.js';
import type { SessionAuthService } from '../identity/session/session-auth.service.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import type { Antiforgery } from './antiforgery.js';
import { handle, parse, queryValue, view } from './plumbing.js';
import { sendFormError, sendValidationProblem } from './problem.js';
import type { SignInResponses } from './sign-in-responses.js';
import { sessionReaderOf } from './browser.js';

/** The culture cookie lasts a year, like ASP.NET Core's. */
const CULTURE_MAX_AGE_MS = 365 * 24 * 60 * 60 * 1000;

/** Dependencies of {@link sessionRouter}. */
export interface SessionRouterDeps {
  sessions: RequestSessions;
  antiforgery: Antiforgery;
  auth: SessionAuthService;
  partners: PartnerService;
  returnUrls: ReturnUrls;
  applications: Applications;
  responses: SignInResponses;
  config: Pick<GatewayConfig, 'secure'>;
}

/** `User`'s answer (the router's route and the light-call dispatcher, http/light-calls.ts). */
export function currentUserAnswer(
  auth: Pick<SessionAuthService, 'currentUser'>,
  sessions: RequestSessions,
  req: Request,
) {
  return auth.currentUser(sessionReaderOf(sessions, req));
}

/**
 * The session calls (SPEC.md §7): Antiforgery, Exchange, User, LocalAllowed, IsRemoteAuthentication, ProfileImage,
 * SetLanguage. The query calls answer both GET and POST.
 */
export function sessionRouter(deps: SessionRouterDeps): Router {
  const { sessions, antiforgery, auth, returnUrls, applications, responses } = deps;
  const router = Router();

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
      if (found.kind === 'expired') return responses.timedOut(req, res);
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

  view(router, '/User', async (req, res) => {
    if (!parse(returnUrlQuerySchema, req.query, res)) return;
    res.set('Cache-Control', 'no-store').json(await currentUserAnswer(auth, sessions, req));
  });

  // Where a signed-in person can go on to from the signed-in home (ADR 0017); nothing for anyone else.
  view(router, '/Applications', async (req, res) => {
    const user = await auth.currentUser(sessionReaderOf(sessions, req));
    res.set('Cache-Control', 'no-store').json(user.isAuthenticated ? await applications.list() : []);
  });

  view(router, '/LocalAllowed', async (req, res) => {
    // True, and the truth: no partner or client setting turns password sign-in off (ADR 0040); LoginView's
    // allowLocal says the same and must change with it.
    if (parse(returnUrlQuerySchema, req.query, res)) res.json(true);
    return Promise.resolve();
  });

  view(router, '/IsRemoteAuthentication', async (req, res) => {
    const query = parse(returnUrlQuerySchema, req.query, res);
    if (!query) return;
    const target = await returnUrls.safe(query.returnUrl);
    // A sign-in started by an application resumes an OIDC interaction (or an authorize call).
    res.json(/^\/(interaction\/|connect\/authorize)/i.test(target));
  });

  router.get(
    '/ProfileImage',
    handle(async (req, res) => {
      const signedIn = await auth.signedInUser(sessionReaderOf(sessions, req));
      if (!signedIn) return sendFormError(res, 'notAuthenticated', 401);
      res
        .type('image/svg+xml')
        .set('Cache-Control', 'private, no-cache')
        .set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .send(profileImageSvg(signedIn.user.displayName));
    }),
  );

  router.post(
    '/SetLanguage',
    handle(async (req, res) => {
      const fromQuery = queryValue(req, 'language');
      const requested =
        fromQuery === undefined ? (req.body as { language?: unknown } | undefined)?.language : fromQuery;
      if (requested === undefined || requested === '') {
        return sendValidationProblem(res, { language: ['required'] });
      }
      const language = await deps.partners.acceptedLanguage(req.hostname, requested);
      if (!language) return sendValidationProblem(res, { language: ['invalidValue'] });
      // Written raw (`encode: String`) so the value is exactly `c=<l>|uic=<l>`, as the shell writes it; readable
      // by the page (not HttpOnly) because the shell reads its `c=` part at start-up.
      res.cookie(CULTURE_COOKIE, `c=${language}|uic=${language}`, {
        path: '/',
        httpOnly: false,
        secure: deps.config.secure,
        sameSite: 'lax',
        maxAge: CULTURE_MAX_AGE_MS,
        encode: String,
      });
      res.set('Cache-Control', 'no-store').status(200).json({ language });
    }),
  );

  return router;
}
