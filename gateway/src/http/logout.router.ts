import { Router } from 'express';
import { logoutRequestSchema, logoutViewQuerySchema, silentLogoutRequestSchema } from 'shared-contracts';
import type { SignOutService } from '../identity/sign-out/sign-out.service.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import { handle, parse } from './plumbing.js';
import type { SignInResponses } from './sign-in-responses.js';
import { browserOf } from './browser.js';

/** Dependencies of {@link logoutRouter}. */
export interface LogoutRouterDeps {
  sessions: RequestSessions;
  signOut: SignOutService;
  responses: SignInResponses;
}

/** Sign-out (SPEC.md §7 "Sign-out"): LogoutView, Logout and SilentLogout. */
export function logoutRouter({ sessions, signOut, responses }: LogoutRouterDeps): Router {
  const router = Router();

  // GET only reads; POST may use up the one-time record of a finished sign-out (a GET never changes state).
  for (const method of ['get', 'post'] as const) {
    router[method](
      '/LogoutView',
      handle(async (req, res) => {
        const query = parse(logoutViewQuerySchema, req.query, res);
        if (!query) return;
        const body = await signOut.view(browserOf(sessions, req, res), query.logoutId, method === 'post');
        res.set('Cache-Control', 'no-store').json(body);
      }),
    );
  }

  router.post(
    '/Logout',
    handle(async (req, res) => {
      const body = parse(logoutRequestSchema, req.body, res);
      if (!body) return;
      const { session, target } = await signOut.signOut(browserOf(sessions, req, res), {
        logoutId: body.logoutId,
        ip: req.ip ?? null,
      });
      responses.redirect(res, target, session);
    }),
  );

  // The shell's idle timer (ADR 0020): the same sign-out as Logout (server session, OIDC session, back-channel
  // logout: S27), without a prompt, landing on the logged-out page with the inactivity message.
  router.post(
    '/SilentLogout',
    handle(async (req, res) => {
      if (!parse(silentLogoutRequestSchema, req.body, res)) return;
      const { session, target } = await signOut.signOut(browserOf(sessions, req, res), {
        logoutId: undefined,
        ip: req.ip ?? null,
        reason: 'inactivity',
      });
      responses.redirect(res, target, session);
    }),
  );

  return router;
}
