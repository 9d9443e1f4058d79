import { Router } from 'express';
import { providerIdSchema } from 'shared-contracts';
import type { ExternalIdentityService } from '../identity/external/external-identity.service.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import type { Antiforgery } from './antiforgery.js';
import { handle } from './plumbing.js';
import { browserOf } from './browser.js';

/** Where a refused upstream callback sends the browser: the sign-in error page (SPEC.md §2 `/error/signin`). */
export const UPSTREAM_FAILED_PATH = '/error/signin';

/**
 * The upstream providers' redirect back (`/signin/<id>/callback`, registered with each upstream; ADR 0018): a
 * full-page GET, so it answers with a plain redirect — to the next sign-in step, the link page, or the returnUrl —
 * with an anti-forgery token bound to the (new) session.
 */
export function upstreamCallbackRouter(deps: {
  external: Pick<ExternalIdentityService, 'callback'>;
  antiforgery: Antiforgery;
  sessions: RequestSessions;
}): Router {
  const router = Router();
  router.get(
    '/signin/:id/callback',
    handle(async (req, res) => {
      res.set('Cache-Control', 'no-store');
      const id = providerIdSchema.safeParse(req.params.id);
      const result = id.success
        ? await deps.external.callback(
            browserOf(deps.sessions, req, res),
            id.data,
            req.originalUrl,
            req.socket.remoteAddress ?? 'unknown',
          )
        : ({ kind: 'failed', reason: 'unknown-provider' } as const);
      if (result.kind === 'failed') {
        res.redirect(302, UPSTREAM_FAILED_PATH);
        return;
      }
      deps.antiforgery.issue(res, result.session.id);
      res.redirect(302, result.target);
    }),
  );
  return router;
}
