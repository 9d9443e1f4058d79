import { Router, type Request, type RequestHandler, type Response } from 'express';
import {
  eexLinkRequestSchema,
  linkRequestSchema,
  nextQuerySchema,
  returnUrlOf,
  UPSTREAM_KEPT_QUERY,
  upstreamLogoutQuerySchema,
  vendorLoginRequestSchema,
  vendorLoginViewQuerySchema,
} from 'shared-contracts';
import type { ExternalIdentityService } from '../identity/external/external-identity.service.js';
import type { TwoFactorService } from '../identity/two-factor/two-factor.service.js';
import type { ReturnUrls } from '../identity/applications/return-urls.service.js';
import type { SessionAuthService } from '../identity/session/session-auth.service.js';
import type { SignInService } from '../identity/sign-in/sign-in.service.js';
import type { SignOutService } from '../identity/sign-out/sign-out.service.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import { handle, parse, view } from './plumbing.js';
import { sendFormError } from './problem.js';
import { callerOf } from './account-access.js';
import type { SignInResponses } from './sign-in-responses.js';
import { browserOf } from './browser.js';

/** Dependencies of {@link vendorRouter}. */
export interface VendorRouterDeps {
  sessions: RequestSessions;
  external: ExternalIdentityService;
  returnUrls: ReturnUrls;
  auth: Pick<SessionAuthService, 'signedInUser'>;
  signIn: Pick<SignInService, 'isAtStep'>;
  twoFactor: Pick<TwoFactorService, 'recentFullSignIn' | 'user'>;
  signOut: Pick<SignOutService, 'pendingUpstreamLogout' | 'forgetUpstreamLogout'>;
  responses: SignInResponses;
  /** The captcha check in front of `Link` (captcha.router.ts); absent, Link is guarded by its throttle only. */
  linkGuard?: RequestHandler;
}

/** Where a signed-in user's account page is (EexLink's default way back). */
const ACCOUNT_HOME = '/account/';

/**
 * Vendor and external sign-in (SPEC.md §7, ADR 0018): VendorLoginView, VendorLogin, ExternalUser, Link, Next,
 * EexLink, ExternalLogins, EexUnlink and UpstreamLogout. The upstream's callback is `upstreamCallbackRouter`.
 */
export function vendorRouter(deps: VendorRouterDeps): Router {
  const { sessions, external, responses } = deps;
  const router = Router();

  async function start(
    req: Request,
    res: Response,
    input: { vendorId: string; returnUrl: string; purpose: 'sign-in' | 'link'; userId?: string },
  ) {
    const started = await external.start(browserOf(sessions, req, res), {
      providerId: input.vendorId,
      host: req.hostname,
      returnUrl: input.returnUrl,
      purpose: input.purpose,
      ...(input.userId ? { userId: input.userId } : {}),
    });
    if (started.kind === 'unknown') return sendFormError(res, 'notFound', 404);
    if (started.kind === 'unavailable') return sendFormError(res, 'serviceUnavailable', 503);
    responses.redirect(res, started.url, started.session);
  }

  view(router, '/VendorLoginView', async (req, res) => {
    const query = parse(vendorLoginViewQuerySchema, req.query, res);
    if (!query) return;
    const found = await external.vendorView(query.vendorId, req.hostname);
    if (!found) return sendFormError(res, 'notFound', 404);
    res.set('Cache-Control', 'no-store').json(found);
  });

  router.post(
    '/VendorLogin',
    handle(async (req, res) => {
      const body = parse(vendorLoginRequestSchema, req.body, res);
      if (!body) return;
      const returnUrl = await deps.returnUrls.safe(body.returnUrl ?? returnUrlOf(req.query));
      await start(req, res, { vendorId: body.vendorId, returnUrl, purpose: 'sign-in' });
    }),
  );

  router.get(
    '/ExternalUser',
    handle(async (req, res) => {
      const found = await external.externalUser(await sessions.current(req));
      if (!found) return sendFormError(res, 'notFound', 404);
      res.set('Cache-Control', 'no-store').json(found);
    }),
  );

  router.post(
    '/Link',
    deps.linkGuard ?? ((_req, _res, next) => next()),
    handle(async (req, res) => {
      const body = parse(linkRequestSchema, req.body, res);
      if (!body) return;
      const found = await sessions.lookup(req);
      if (found.kind !== 'active') return responses.timedOut(req, res);
      const identity = external.pendingIdentity(found.session);
      // Nothing to link (expired, or already linked): the flow starts again at the sign-in page.
      if (!identity) return responses.timedOut(req, res);
      const outcome = await external.link(browserOf(sessions, req, res), found.session, identity, {
        username: body.username,
        password: body.password,
        ip: req.ip ?? 'unknown',
      });
      responses.sendOutcome(res, outcome);
    }),
  );

  router.post(
    '/Next',
    handle(async (req, res) => {
      const query = parse(nextQuerySchema, req.query, res);
      if (!query) return;
      const session = await sessions.ensure(req, res);
      const target = await external.back(session);
      responses.redirect(res, target, session);
    }),
  );

  router.post(
    '/EexLink',
    handle(async (req, res) => {
      const body = parse(eexLinkRequestSchema, req.body, res);
      if (!body) return;
      const actor = callerOf(res, 'EexLink');
      const returnUrl = await deps.returnUrls.safe(body.returnUrl ?? ACCOUNT_HOME);
      await start(req, res, { vendorId: body.vendorId, returnUrl, purpose: 'link', userId: actor.user.id });
    }),
  );

  router.get(
    '/ExternalLogins',
    handle(async (req, res) => {
      const signedIn = callerOf(res, 'ExternalLogins');
      res
        .set('Cache-Control', 'no-store')
        .json(await external.linkedProviders(signedIn.user.id, req.hostname));
    }),
  );

  router.post(
    '/EexUnlink',
    handle(async (req, res) => {
      const body = parse(eexLinkRequestSchema, req.body, res);
      if (!body) return;
      const actor = callerOf(res, 'EexUnlink');
      const removed = await external.unlink(actor.user.id, body.vendorId, req.ip ?? 'unknown');
      if (removed === 0) return sendFormError(res, 'notFound', 404);
      res.json(true);
    }),
  );

  router.post(
    '/UpstreamLogout',
    handle(async (req, res) => {
      const query = parse(upstreamLogoutQuerySchema, req.query, res);
      if (!query) return;
      const session = await sessions.ensure(req, res);
      const pending = await deps.signOut.pendingUpstreamLogout(session);
      const loggedOut = `/account/loggedout${pending?.record.logoutId ? `?logoutId=${encodeURIComponent(pending.record.logoutId)}` : ''}`;
      if (!pending) return responses.redirect(res, loggedOut, session);
      await deps.signOut.forgetUpstreamLogout(session);
      if (query.button !== 'yes') return responses.redirect(res, loggedOut, session);
      const target = await external.endSessionUrl(pending.record);
      // A provider without an end-session endpoint (or unreachable now): signed out here only, and the logged-out
      // page says so (issue 53); the flag names no provider, so a forged one can only show that general note.
      responses.redirect(
        res,
        target ?? `${loggedOut}${loggedOut.includes('?') ? '&' : '?'}${UPSTREAM_KEPT_QUERY}`,
        session,
      );
    }),
  );

  return router;
}
