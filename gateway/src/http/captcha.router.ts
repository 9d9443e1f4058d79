import { Router, type Request, type RequestHandler, type Response } from 'express';
import {
  captchaChallengeQuerySchema,
  verifyCaptchaRequestSchema,
  type CaptchaAction,
} from 'shared-contracts';
import type { CaptchaContext, CaptchaService } from '../identity/captcha/captcha.service.js';
import type { Session } from '../infra/sessions/session-manager.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import { ThrottleUnavailableError } from '../infra/throttle/login-throttle.js';
import { handle, parse } from './plumbing.js';
import { sendFormError } from './problem.js';
import type { SignInResponses } from './sign-in-responses.js';
import { browserOf } from './browser.js';

/** Dependencies of {@link captchaRouter} and {@link captchaGuard}. */
export interface CaptchaRouterDeps {
  sessions: RequestSessions;
  captcha: CaptchaService;
  responses: SignInResponses;
}

function contextOf(sessions: RequestSessions, req: Request, res: Response, session: Session): CaptchaContext {
  const browser = browserOf(sessions, req, res);
  return { browser, host: req.hostname, ip: req.ip ?? 'unknown', sessionId: session.id };
}

/**
 * VerifyCaptcha (SPEC.md §7) and `GET CaptchaChallenge?action=` (the proof-of-work challenge the widget solves,
 * bound to the session and the action). A verified token lets one call of its action through (S9).
 */
export function captchaRouter({ sessions, captcha, responses }: CaptchaRouterDeps): Router {
  const router = Router();

  router.get(
    '/CaptchaChallenge',
    handle(async (req, res) => {
      res.set('Cache-Control', 'no-store');
      const query = parse(captchaChallengeQuerySchema, req.query, res);
      if (!query) return;
      const session = await sessions.ensure(req, res);
      const challenge = await captcha.challenge(contextOf(sessions, req, res, session), query.action);
      if (!challenge) return sendFormError(res, 'notFound', 404);
      res.json(challenge);
    }),
  );

  router.post(
    '/VerifyCaptcha',
    handle(async (req, res) => {
      res.set('Cache-Control', 'no-store');
      const body = parse(verifyCaptchaRequestSchema, req.body, res);
      if (!body) return;
      const found = await sessions.lookup(req);
      if (found.kind !== 'active') return responses.timedOut(req, res);
      const outcome = await captcha.verify(contextOf(sessions, req, res, found.session), body);
      if (!outcome.ok) {
        req.log.info({ reason: outcome.reason, action: body.action }, 'captcha refused');
        return sendFormError(res, 'captchaInvalid');
      }
      res.json({ verified: true });
    }),
  );

  return router;
}

/**
 * In front of a guarded call (Login, Link, Recover, SendOTP): the one guard of every guarded form. When the
 * partner's policy or the risk asks for a challenge and the session holds no pass for the action, the call is
 * answered with the protocol's 400 and the form-level code `captchaRequired` before it does anything. The login,
 * when the body names one, is read for the account's counters. It never waves a call through: a dead or missing
 * session is answered "session timed out" here, as every guarded call answers it (issue 39: Recover needs no
 * signed-in session, so a signed-out cookie with its old token used to pass with no challenge at all).
 */
export function captchaGuard(
  { sessions, captcha, responses }: CaptchaRouterDeps,
  action: CaptchaAction,
): RequestHandler {
  return (req: Request, res: Response, next) => {
    (async () => {
      const found = await sessions.lookup(req);
      if (found.kind !== 'active') return responses.timedOut(req, res);
      const raw = (req.body as { username?: unknown } | undefined)?.username;
      const login = typeof raw === 'string' && raw.trim() ? raw.trim() : undefined;
      let admitted: boolean;
      try {
        admitted = await captcha.admit(contextOf(sessions, req, res, found.session), action, login);
      } catch (error) {
        // Fail closed (S8), as the throttle itself does.
        if (error instanceof ThrottleUnavailableError) return sendFormError(res, 'serviceUnavailable', 503);
        throw error;
      }
      if (!admitted) return sendFormError(res, 'captchaRequired');
      next();
    })().catch(next);
  };
}
