import { Router } from 'express';
import { providerIdSchema, upstreamJwksPath } from 'shared-contracts';
import type {
  CallbackResult,
  ExternalIdentityService,
} from '../identity/external/external-identity.service.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import type { Antiforgery } from './antiforgery.js';
import { handle } from './plumbing.js';
import { sendFormError } from './problem.js';
import { browserOf } from './browser.js';

/** Where a refused upstream callback sends the browser: the sign-in error page (SPEC.md §2 `/error/signin`). */
export const UPSTREAM_FAILED_PATH = '/error/signin';

/**
 * The upstream providers' redirect back (`/signin/<id>/callback`, registered with each upstream; ADR 0018): a
 * full-page GET, so it answers with a plain redirect — to the next sign-in step, the link page, or the returnUrl —
 * with an anti-forgery token bound to the (new) session.
 */
export function upstreamCallbackRouter(deps: {
  external: Pick<ExternalIdentityService, 'callback' | 'jwks'>;
  antiforgery: Antiforgery;
  sessions: RequestSessions;
}): Router {
  const router = Router();
  // Each provider's public key for `private_key_jwt` (ADR 0064), the JWKS URL registered with the provider: public,
  // as a provider reads it without a session; made on first ask, so it can be registered before the first sign-in.
  router.get(
    upstreamJwksPath(':id'),
    handle(async (req, res) => {
      const id = providerIdSchema.safeParse(req.params.id);
      const jwks = id.success ? await deps.external.jwks(id.data) : undefined;
      if (!jwks) return sendFormError(res, 'notFound', 404);
      // application/json, as providers' own JWKS are served: some clients (glewlwyd's) read no other type.
      res.set('Cache-Control', 'public, max-age=300').json(jwks);
    }),
  );
  router.get(
    '/signin/:id/callback',
    handle(async (req, res) => {
      res.set('Cache-Control', 'no-store');
      const id = providerIdSchema.safeParse(req.params.id);
      const result: CallbackResult = id.success
        ? await deps.external.callback(
            browserOf(deps.sessions, req, res),
            id.data,
            req.originalUrl,
            req.socket.remoteAddress ?? 'unknown',
          )
        : { kind: 'failed', reason: 'unknown-provider' };
      if (result.kind === 'failed') {
        res.redirect(302, result.page ?? UPSTREAM_FAILED_PATH);
        return;
      }
      deps.antiforgery.issue(res, result.session.id);
      res.redirect(302, result.target);
    }),
  );
  return router;
}
