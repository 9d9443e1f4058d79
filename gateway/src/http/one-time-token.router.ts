import { Router, type Request, type RequestHandler } from 'express';
import {
  loginWithOttRequestSchema,
  OTT_CODE_LENGTH,
  OTT_TTL_MINUTES,
  returnUrlOf,
  sendOttRequestSchema,
  type OttRequested,
} from 'shared-contracts';
import {
  OTT_REQUEST_WINDOW_MS,
  type OneTimeSignInService,
} from '../identity/one-time-token/one-time-sign-in.service.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import { isOneTimeTokenMailRequest } from './account-access.js';
import { localeOf } from './locale.js';
import { handle, parse } from './plumbing.js';
import { sendFormError, sendValidationProblem } from './problem.js';
import { sendTooManyAttempts } from './throttled.js';
import type { SignInResponses } from './sign-in-responses.js';
import { browserOf } from './browser.js';

/** Dependencies of {@link oneTimeTokenRouter}. */
export interface OneTimeTokenRouterDeps {
  sessions: RequestSessions;
  oneTimeSignIn: OneTimeSignInService;
  responses: SignInResponses;
  /** The captcha check in front of the mailing `SendOTP` (`captchaGuard(…, 'sendOtp')`); absent, throttles only. */
  sendGuard?: RequestHandler;
  /**
   * `SendOTP` without a username: the 2FA step's SMS resend (`smsResend` of `two-factor-sign-in.routes.ts`); absent,
   * such a body is refused as a restart.
   */
  smsResend?: RequestHandler[];
}

/**
 * One-time-token sign-in (SPEC.md §7 "Two-factor and codes": SendOTP, LoginWithOTT; issue 15; ADR 0019). Mounted in
 * the account API before the two-factor router. Both calls start a sign-in over, as `Login` does, so they are
 * answered whatever sign-in is pending (CALLS_OUTSIDE_SIGN_IN).
 */
export function oneTimeTokenRouter(deps: OneTimeTokenRouterDeps): Router {
  const { sessions, oneTimeSignIn, responses } = deps;
  const router = Router();

  // `SendOTP` names two things (ADR 0019): with a `username` the one-time-token page's mail (here), any other body
  // the 2FA step's SMS resend (below); the access table tells them apart the same way.
  router.post(
    '/SendOTP',
    (req, _res, next) => (isOneTimeTokenMailRequest(req.body) ? next() : next('route')),
    deps.sendGuard ?? ((_req, _res, next) => next()),
    handle(async (req, res) => {
      res.set('Cache-Control', 'no-store');
      const body = parse(sendOttRequestSchema, req.body, res);
      if (!body) return;
      const found = await sessions.lookup(req);
      if (found.kind !== 'active') return responses.timedOut(req, res);
      const outcome = await oneTimeSignIn.request({
        login: body.username,
        session: found.session,
        returnUrl: body.returnUrl ?? returnUrlOf(req.query),
        host: req.hostname,
        locale: localeOf(res),
        ip: req.ip ?? 'unknown',
      });
      if (outcome.kind === 'unavailable') return sendFormError(res, 'serviceUnavailable', 503);
      if (outcome.kind === 'throttled') {
        return sendTooManyAttempts(res, { ms: OTT_REQUEST_WINDOW_MS }, 400);
      }
      // The same body whoever was asked for (S10): the page says a code is on its way if the account exists.
      const answer: OttRequested = {
        accepted: true,
        codeLength: OTT_CODE_LENGTH,
        expiresInMinutes: OTT_TTL_MINUTES,
      };
      res.json(answer);
    }),
  );

  // Any other SendOTP body is the 2FA step's SMS resend, answered here too: one router owns the call.
  router.post('/SendOTP', ...(deps.smsResend ?? [handle((req, res) => responses.restart(req, res))]));

  router.post(
    '/LoginWithOTT',
    handle(async (req, res) => {
      res.set('Cache-Control', 'no-store');
      const body = parse(loginWithOttRequestSchema, req.body, res);
      if (!body) return;
      const found = await sessions.lookup(req);
      if (found.kind !== 'active') return responses.timedOut(req, res);
      const given = body.returnUrl ?? queryReturnUrl(req);
      const outcome = await oneTimeSignIn.signIn(browserOf(sessions, req, res), found.session, {
        code: body.code,
        token: body.token,
        returnUrl: given,
        ip: req.ip ?? 'unknown',
      });
      switch (outcome.kind) {
        case 'invalidCode':
          return sendValidationProblem(res, { code: ['invalidCode'] });
        case 'linkInvalid':
          return sendFormError(res, 'oneTimeLinkInvalid');
        case 'otherBrowser':
          return sendFormError(res, 'oneTimeLinkOtherBrowser');
        default:
          return responses.sendOutcome(res, outcome);
      }
    }),
  );

  return router;
}

/** The query's returnUrl when it names one (absent: the one `SendOTP` was given applies). */
function queryReturnUrl(req: Request): string | undefined {
  const named = Object.keys(req.query).some((key) => key.toLowerCase() === 'returnurl');
  return named ? returnUrlOf(req.query) : undefined;
}
