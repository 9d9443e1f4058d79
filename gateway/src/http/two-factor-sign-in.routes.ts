import type { Request, RequestHandler, Response } from 'express';
import {
  loginWith2faRequestSchema,
  loginWithRecoveryCodeRequestSchema,
  RECOVERY_CODE_LENGTH,
  sendOtpRequestSchema,
} from 'shared-contracts';
import { twoFactorStep } from '../identity/two-factor/two-factor.step.js';
import type { CodeOutcome } from '../identity/two-factor/two-factor.service.js';
import { MFA_OWN_WINDOW_MS } from '../identity/two-factor/two-factor-context.js';
import type { Session } from '../infra/sessions/session-manager.js';
import { callerOf } from './account-access.js';
import { localeOf } from './locale.js';
import { handle, parse } from './plumbing.js';
import { sendTooManyAttempts } from './throttled.js';
import type { StepRoutes } from './step-router.js';
import { bindingOf, secondFactorBrowserOf, sendCodeOutcome, sendFieldError } from './two-factor-codes.js';
import type { TwoFactorRouterDeps } from './two-factor-router-deps.js';
import { browserOf } from './browser.js';

/** The calls of the 2FA page and its recovery-code page (the PIN calls are shared with the wizard). */
type SignInCalls =
  'LoginWith2FAView' | 'LoginWith2FA' | 'LoginWithRecoveryCodeView' | 'LoginWithRecoveryCode';

/**
 * The second-factor sign-in (SPEC.md §7 "Two-factor and codes", ADR 0008): the code or a recovery code completes
 * the 2FA step of a pending sign-in.
 */
export function twoFactorSignInRoutes(
  deps: TwoFactorRouterDeps,
): Pick<StepRoutes<[typeof twoFactorStep]>, SignInCalls> {
  const { signIn, twoFactor, responses } = deps;

  /** This browser's id when the account completed a sign-in with its second factor here before. */
  async function knownBrowser(req: Request, res: Response, userId: string): Promise<string | undefined> {
    if (!deps.secondFactorBrowsers) return undefined;
    const user = await twoFactor.user(userId);
    return user ? deps.secondFactorBrowsers.recognise(browserOf(deps.sessions, req, res), user) : undefined;
  }

  /** Answers a checked code: the next step (209) on success, else the errors map on the field. */
  async function finishStep(
    req: Request,
    res: Response,
    session: Session,
    outcome: CodeOutcome,
    field: string,
    amr: string[],
  ): Promise<void> {
    if (outcome === 'throttled') {
      // The owner's budget of code attempts counts over MFA_OWN_WINDOW_MS (a stranger's is longer, and not told).
      sendTooManyAttempts(res, { ms: MFA_OWN_WINDOW_MS }, 400);
      return;
    }
    if (outcome === 'invalid') {
      sendFieldError(res, field);
      return;
    }
    // A new session id after the second factor (S24): completeStep regenerates it when the sign-in completes.
    responses.sendOutcome(
      res,
      await signIn.completeStep(browserOf(deps.sessions, req, res), session, twoFactorStep.id, amr),
    );
  }

  return {
    LoginWith2FAView: {
      method: 'view',
      async serve(_req, res, { user }) {
        res.set('Cache-Control', 'no-store').json(await twoFactor.loginView(user.id));
      },
    },
    LoginWithRecoveryCodeView: {
      method: 'view',
      serve(_req, res) {
        res.set('Cache-Control', 'no-store').json({ codeLength: RECOVERY_CODE_LENGTH });
        return Promise.resolve();
      },
    },
    LoginWith2FA: {
      method: 'post',
      async serve(req, res, { session, user }) {
        const body = parse(loginWith2faRequestSchema, req.body, res);
        if (!body) return;
        const outcome = await twoFactor.verifySignInCode(
          user.id,
          body.method,
          body.code,
          bindingOf(session),
          await knownBrowser(req, res, user.id),
        );
        // "Remember this browser" is lasting state: it waits for the sign-in to complete (issue 39).
        if (outcome === 'ok' && body.rememberBrowser)
          deps.sessionChanges.rememberBrowserOnCompletion(session);
        await finishStep(req, res, session, outcome, 'code', ['otp', 'mfa']);
      },
    },
    LoginWithRecoveryCode: {
      method: 'post',
      async serve(req, res, { session, user }) {
        const body = parse(loginWithRecoveryCodeRequestSchema, req.body, res);
        if (!body) return;
        const outcome = await twoFactor.redeemRecoveryCode(
          user.id,
          body.recoveryCode,
          await knownBrowser(req, res, user.id),
        );
        await finishStep(req, res, session, outcome, 'recoveryCode', ['mfa']);
      },
    },
  };
}

/**
 * `SendOTP` without a username: the 2FA step's SMS resend (ADR 0008). Its caller is a pending sign-in waiting at
 * that step, as the access table declares (`pendingSignInAt(two-factor)`, ADR 0052); the one-time-token router's
 * single `SendOTP` route hands such a body here (ADR 0019).
 */
export function smsResend(deps: TwoFactorRouterDeps): RequestHandler {
  const { twoFactor } = deps;
  return handle(async (req, res) => {
    if (!parse(sendOtpRequestSchema, req.body ?? {}, res)) return;
    const { session, user } = callerOf(res, 'SendOTP');
    const device = secondFactorBrowserOf(deps, req, res, user);
    sendCodeOutcome(res, await twoFactor.sendSignInSms(user, bindingOf(session), localeOf(res), device));
  });
}
