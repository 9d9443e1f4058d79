import type { Request, RequestHandler, Response } from 'express';
import {
  loginWith2faRequestSchema,
  loginWithRecoveryCodeRequestSchema,
  RECOVERY_CODE_LENGTH,
  sendOtpRequestSchema,
} from 'shared-contracts';
import { twoFactorStep } from '../identity/two-factor/two-factor.step.js';
import type { CodeOutcome } from '../identity/two-factor/two-factor.service.js';
import type { Session } from '../infra/sessions/session-manager.js';
import { localeOf } from './locale.js';
import { handle, parse } from './plumbing.js';
import { sendFormError } from './problem.js';
import type { StepRoutes } from './step-router.js';
import { bindingOf, secondFactorDeviceOf, sendCodeOutcome, sendFieldError } from './two-factor-codes.js';
import type { TwoFactorRouterDeps } from './two-factor-router-deps.js';
import { browserOf } from './browser.js';

/** The calls of the 2FA page and its recovery-code page (the PIN calls are shared with the wizard). */
type SignInCalls =
  'LoginWith2FAView' | 'LoginWith2FA' | 'LoginWithRecoveryCodeView' | 'LoginWithRecoveryCode';

/** The user of the pending sign-in (the step router already checked it waits at the step). */
async function pending(
  deps: TwoFactorRouterDeps,
  req: Request,
): Promise<{ session: Session; userId: string } | undefined> {
  const session = await deps.sessions.current(req);
  const userId = session?.record.data.pending?.userId;
  return session && userId ? { session, userId } : undefined;
}

/**
 * The second-factor sign-in (SPEC.md §7 "Two-factor and codes", ADR 0008): the code or a recovery code completes
 * the 2FA step of a pending sign-in.
 */
export function twoFactorSignInRoutes(
  deps: TwoFactorRouterDeps,
): Pick<StepRoutes<[typeof twoFactorStep]>, SignInCalls> {
  const { signIn, twoFactor, responses } = deps;

  /** This browser's id when the account completed a sign-in with its second factor here before. */
  async function knownDevice(req: Request, res: Response, userId: string): Promise<string | undefined> {
    if (!deps.secondFactorDevices) return undefined;
    const user = await twoFactor.user(userId);
    return user ? deps.secondFactorDevices.recognise(browserOf(deps.sessions, req, res), user) : undefined;
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
      res.set('Retry-After', '900');
      sendFormError(res, 'tooManyAttempts');
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
      caller: 'step',
      async serve(req, res) {
        const found = await pending(deps, req);
        if (!found) return responses.restart(req, res);
        res.set('Cache-Control', 'no-store').json(await twoFactor.loginView(found.userId));
      },
    },
    LoginWithRecoveryCodeView: {
      method: 'view',
      caller: 'step',
      serve(_req, res) {
        res.set('Cache-Control', 'no-store').json({ codeLength: RECOVERY_CODE_LENGTH });
        return Promise.resolve();
      },
    },
    LoginWith2FA: {
      method: 'post',
      caller: 'step',
      async serve(req, res) {
        const body = parse(loginWith2faRequestSchema, req.body, res);
        if (!body) return;
        const found = await pending(deps, req);
        if (!found) return responses.restart(req, res);
        const outcome = await twoFactor.verifySignInCode(
          found.userId,
          body.method,
          body.code,
          bindingOf(found.session),
          await knownDevice(req, res, found.userId),
        );
        // "Remember this browser" is lasting state: it waits for the sign-in to complete (issue 39).
        if (outcome === 'ok' && body.rememberBrowser && found.session.record.data.pending)
          found.session.record.data.pending.rememberBrowser = true;
        await finishStep(req, res, found.session, outcome, 'code', ['otp', 'mfa']);
      },
    },
    LoginWithRecoveryCode: {
      method: 'post',
      caller: 'step',
      async serve(req, res) {
        const body = parse(loginWithRecoveryCodeRequestSchema, req.body, res);
        if (!body) return;
        const found = await pending(deps, req);
        if (!found) return responses.restart(req, res);
        const outcome = await twoFactor.redeemRecoveryCode(
          found.userId,
          body.recoveryCode,
          await knownDevice(req, res, found.userId),
        );
        await finishStep(req, res, found.session, outcome, 'recoveryCode', ['mfa']);
      },
    },
  };
}

/**
 * `SendOTP` without a username: the 2FA step's SMS resend (ADR 0008). Only while a sign-in waits at that step; the
 * one-time-token router's single `SendOTP` route hands such a body here (ADR 0019).
 */
export function smsResend(deps: TwoFactorRouterDeps, atStep: RequestHandler): RequestHandler[] {
  const { twoFactor, responses } = deps;
  return [
    atStep,
    handle(async (req, res) => {
      if (!parse(sendOtpRequestSchema, req.body ?? {}, res)) return;
      const found = await pending(deps, req);
      const user = found ? await twoFactor.user(found.userId) : undefined;
      if (!found || !user || user.disabled) return responses.restart(req, res);
      const device = secondFactorDeviceOf(deps, req, res, user);
      sendCodeOutcome(
        res,
        await twoFactor.sendSignInSms(user, bindingOf(found.session), localeOf(res), device),
      );
    }),
  ];
}
