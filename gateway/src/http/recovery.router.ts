import { Router, type Request, type RequestHandler } from 'express';
import { recoverRequestSchema } from 'shared-contracts';
import { expiredPasswordStep } from '../identity/recovery/expired-password.step.js';
import { RECOVER_WINDOW_MS, type RecoveryService } from '../identity/recovery/recovery.service.js';
import type { SignInService } from '../identity/sign-in/sign-in.service.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import { localeOf } from './locale.js';
import { handle, parse } from './plumbing.js';
import { sendFormError, sendValidationProblem } from './problem.js';
import type { SignInResponses } from './sign-in-responses.js';
import { sendTooManyAttempts } from './throttled.js';
import { stepRouter } from './step-router.js';
import { browserOf } from './browser.js';

/** Where a dead reset link leads (SPEC.md §2): the page offers to ask for a new one. */
export const LINK_EXPIRED_PATH = '/error/link-expired';
/** How long a refused recovery call waits at most: every recovery counter counts over this window. */
const RECOVERY_WAIT = { ms: RECOVER_WINDOW_MS };

/** Dependencies of {@link recoveryRouter}. */
export interface RecoveryRouterDeps {
  sessions: RequestSessions;
  signIn: SignInService;
  recovery: RecoveryService;
  responses: SignInResponses;
  /**
   * The captcha of SPEC.md §9 ("captcha-guarded paths: … /account/recover"): runs before `Recover` does anything.
   * The captcha flow plugs its VerifyCaptcha check in here; absent, `Recover` is guarded by its throttles only.
   */
  recoverGuard?: RequestHandler;
}

function context(req: Request, res: Parameters<RequestHandler>[1]) {
  return { host: req.hostname, locale: localeOf(res), ip: req.ip ?? 'unknown' };
}

/**
 * Recovery and passwords (SPEC.md §7): Recover, PasswordRules, ResetPassword, ChangeExpiredPassword (VerifyCaptcha
 * belongs to the captcha flow: see `recoverGuard`). Mounted in the account API after the sign-in gate, so while a
 * sign-in is pending only the expired-password step's calls get here (S3).
 */
export function recoveryRouter(deps: RecoveryRouterDeps): Router {
  const { sessions, recovery, responses } = deps;
  const router = Router();
  const noStore: RequestHandler = (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  };
  router.use(noStore);

  router.post(
    '/Recover',
    deps.recoverGuard ?? ((_req, _res, next) => next()),
    handle(async (req, res) => {
      const body = parse(recoverRequestSchema, req.body, res);
      if (!body) return;
      const outcome = await recovery.recover({ login: body.username, ...context(req, res) });
      if (outcome.kind === 'unavailable') return sendFormError(res, 'serviceUnavailable', 503);
      if (outcome.kind === 'throttled') {
        return sendTooManyAttempts(res, RECOVERY_WAIT, 400);
      }
      // The same body whoever was asked for (S10): the page says a mail is on its way if the account exists.
      res.json({ accepted: true });
    }),
  );

  router.post(
    '/ResetPassword',
    handle(async (req, res) => {
      const outcome = await recovery.resetPassword(req.body, context(req, res));
      switch (outcome.kind) {
        case 'invalid':
          return sendValidationProblem(res, outcome.errors);
        case 'throttled':
          return sendTooManyAttempts(res, RECOVERY_WAIT, 400);
        case 'linkExpired':
          return responses.redirect(res, LINK_EXPIRED_PATH, await sessions.ensure(req, res));
        case 'done':
          // Not signed in (S14): the user signs in with the new password, second factor included.
          res.json({ passwordReset: true });
      }
    }),
  );

  // The expired-password step's calls (PasswordRules serves the reset page too): built from the step.
  router.use(
    stepRouter([expiredPasswordStep], {
      PasswordRules: {
        method: 'view',
        async serve(req, res) {
          const body = parse(recovery.passwordRulesRequest, req.method === 'GET' ? {} : req.body, res);
          if (!body) return;
          const session = await sessions.current(req);
          const userId = session?.record.data.pending?.userId ?? session?.record.data.account?.userId;
          const outcome = await recovery.passwordRules({ token: body.token, userId, ...context(req, res) });
          if (outcome.kind === 'throttled') {
            return sendTooManyAttempts(res, RECOVERY_WAIT, 400);
          }
          if (outcome.kind === 'linkExpired') {
            const anonymous = await sessions.ensure(req, res);
            return responses.redirect(res, LINK_EXPIRED_PATH, anonymous);
          }
          res.json(outcome.rules);
        },
      },
      ChangeExpiredPassword: {
        method: 'post',
        async serve(req, res, { session, user }) {
          // The proof is this session's own pending sign-in, and only while it waits at this step (its policy):
          // another browser, another sign-in or another way in brings none, and the current password is asked.
          const outcome = await recovery.changeExpiredPassword(user.id, req.body, context(req, res), {
            passwordVerifiedAt: session.record.data.pending?.passwordVerifiedAt,
          });
          if (outcome.kind === 'invalid') return sendValidationProblem(res, outcome.errors);
          if (outcome.kind === 'throttled') {
            return sendTooManyAttempts(res, RECOVERY_WAIT, 400);
          }
          // The sign-in goes on with its next step (second factor, passkey offer, customer) and ends at its
          // returnUrl, which for an application is the OIDC interaction that asked.
          responses.sendOutcome(
            res,
            await deps.signIn.completeStep(
              browserOf(sessions, req, res),
              session,
              expiredPasswordStep.id,
              [],
            ),
          );
        },
      },
    }),
  );

  return router;
}
