import {
  generatePhoneVerificationRequestSchema,
  generatePinQuerySchema,
  redeemRecoveryCodeQuerySchema,
  redeemStateQuerySchema,
  returnUrlOf,
  validate2faSetupCodeRequestSchema,
} from 'shared-contracts';
import type { CodeBinding } from '../identity/two-factor/two-factor.service.js';
import { twoFactorSetupStep } from '../identity/two-factor/two-factor-setup.step.js';
import { twoFactorStep } from '../identity/two-factor/two-factor.step.js';
import { sessionAmr } from '../identity/account/ways-in.js';
import type { Request, Response } from 'express';
import { localeOf } from './locale.js';
import { parse } from './plumbing.js';
import { sendFormError, sendValidationProblem } from './problem.js';
import type { StepOrAccountActor } from './step-or-account.js';
import type { StepRoutes } from './step-router.js';
import {
  bindingOf,
  lowerKeys,
  secondFactorDeviceOf,
  sendCodeOutcome,
  sendFieldError,
  setupBindingOf,
} from './two-factor-codes.js';
import type { TwoFactorRouterDeps } from './two-factor-router-deps.js';
import { browserOf } from './browser.js';

/** The wizard's caller: the set-up step of a pending sign-in, or a recently signed-in account (S21). */
export type SetupActor = (req: Request, res: Response) => Promise<StepOrAccountActor | undefined>;

type WizardCalls =
  | 'Setup2FAView'
  | 'Validate2faSetupCode'
  | 'GeneratePhoneVerification'
  | 'EnableTwoFactor'
  | 'RedeemRecoveryCode'
  | 'RedeemState';

/**
 * The set-up wizard (SPEC.md §7, ADR 0008): its calls answer the set-up step's pending sign-in or a signed-in
 * account whose full sign-in is recent (S21).
 */
export function twoFactorSetupRoutes(
  deps: TwoFactorRouterDeps,
  setupActor: SetupActor,
): Pick<StepRoutes<[typeof twoFactorSetupStep]>, WizardCalls> {
  const { sessions, signIn, twoFactor, responses } = deps;
  return {
    Setup2FAView: {
      method: 'view',
      caller: 'open',
      async serve(req, res) {
        const actor = await setupActor(req, res);
        if (!actor) return;
        res.set('Cache-Control', 'no-store').json(await twoFactor.setupView(actor.user, actor.duringSignIn));
      },
    },
    GeneratePhoneVerification: {
      method: 'post',
      caller: 'open',
      async serve(req, res) {
        const actor = await setupActor(req, res);
        if (!actor) return;
        const body = parse(generatePhoneVerificationRequestSchema, req.body, res);
        if (!body) return;
        const binding = setupBindingOf(actor.session);
        const device = secondFactorDeviceOf(deps, req, res, actor.user);
        sendCodeOutcome(
          res,
          await twoFactor.sendPhoneVerification(actor.user, binding, body.phone, localeOf(res), device),
        );
      },
    },
    Validate2faSetupCode: {
      method: 'post',
      caller: 'open',
      async serve(req, res) {
        const actor = await setupActor(req, res);
        if (!actor) return;
        const body = parse(validate2faSetupCodeRequestSchema, req.body, res);
        if (!body) return;
        const binding = setupBindingOf(actor.session);
        // What this session proved decides whether the new method is bound to the stamp (ADR 0042).
        const amr = sessionAmr(actor.session);
        // A method set up already is replaced only when the body says so (ADR 0050).
        const result =
          body.method === 'authenticator'
            ? await twoFactor.confirmAuthenticator(actor.user.id, body.code, amr, body.replace)
            : body.method === 'sms'
              ? await twoFactor.confirmSms(actor.user.id, body.code, binding, amr, body.replace)
              : await twoFactor.confirmPin(actor.user.id, body.code, binding, amr, body.replace);
        if (result.kind === 'throttled') {
          res.set('Retry-After', '900');
          return sendFormError(res, 'tooManyAttempts');
        }
        if (result.kind === 'exists') return sendFormError(res, 'twoStepMethodExists');
        if (result.kind !== 'ok') return sendFieldError(res, 'code');
        const account = actor.session.record.data.account;
        if (!actor.duringSignIn && account) {
          // The code just proved the new factor: the rest of the wizard (codes, done) counts as a full sign-in.
          account.amr = [...new Set([...account.amr, 'otp', 'mfa'])];
          await sessions.save(actor.session);
        }
        res.set('Cache-Control', 'no-store').json({ recoveryCodesId: result.recoveryCodesId });
      },
    },
    // POST only: showing the set uses it up, so it needs the anti-forgery check a GET would skip.
    RedeemRecoveryCode: {
      method: 'post',
      caller: 'open',
      async serve(req, res) {
        const actor = await setupActor(req, res);
        if (!actor) return;
        const query = parse(redeemRecoveryCodeQuerySchema, lowerKeys(req.query), res);
        if (!query) return;
        if (query.id === undefined) {
          // On demand, from the signed-in account only (the wizard of a sign-in has its set's id).
          if (actor.duringSignIn) return sendValidationProblem(res, { id: ['required'] });
          const fresh = await twoFactor.regenerateRecoveryCodes(actor.user.id, sessionAmr(actor.session));
          if (!fresh) return sendFormError(res, 'stepNotAllowed');
          res.set('Cache-Control', 'no-store').json({ codes: fresh });
          return;
        }
        const codes = await twoFactor.takeRecoveryCodes(actor.user.id, query.id);
        if (!codes) return sendFormError(res, 'recoveryCodesUnavailable');
        res.set('Cache-Control', 'no-store').json({ codes });
      },
    },
    RedeemState: {
      method: 'view',
      caller: 'open',
      async serve(req, res) {
        const actor = await setupActor(req, res);
        if (!actor) return;
        const query = parse(redeemStateQuerySchema, lowerKeys(req.query), res);
        if (!query) return;
        const available = await twoFactor.recoveryCodesAvailable(actor.user.id, query.state);
        res.set('Cache-Control', 'no-store').json({ available });
      },
    },
    EnableTwoFactor: {
      method: 'post',
      caller: 'open',
      async serve(req, res) {
        const actor = await setupActor(req, res);
        if (!actor) return;
        // The wizard ends here only once a factor is on (Validate2faSetupCode), never by skipping it.
        if ((await twoFactor.methodsOf(actor.user.id)).length === 0)
          return sendFormError(res, 'stepNotAllowed');
        if (actor.duringSignIn) {
          const outcome = await signIn.completeStep(
            browserOf(sessions, req, res),
            actor.session,
            twoFactorSetupStep.id,
            ['otp', 'mfa'],
          );
          return responses.sendOutcome(res, outcome);
        }
        const returnUrl = await deps.returnUrls.safe(returnUrlOf(req.query));
        responses.redirect(res, returnUrl, actor.session);
      },
    },
  };
}

/**
 * The mailed PIN, shared by the 2FA page and the wizard. Who asks: the pending sign-in at the 2FA step (its code
 * binds to that sign-in), else the set-up wizard's caller (the code binds to this set-up).
 */
export function pinRoutes(
  deps: TwoFactorRouterDeps,
  setupActor: SetupActor,
): Pick<StepRoutes<[typeof twoFactorStep, typeof twoFactorSetupStep]>, 'GeneratePin' | 'PinReference'> {
  const { sessions, signIn, twoFactor, responses } = deps;

  /** Answers for itself and returns undefined when the caller is neither. */
  async function pinActor(
    req: Request,
    res: Response,
  ): Promise<{ user: StepOrAccountActor['user']; binding: CodeBinding } | undefined> {
    const session = await sessions.current(req);
    if (session && signIn.isAtStep(session, twoFactorStep.id)) {
      const user = await twoFactor.user(session.record.data.pending!.userId);
      if (user && !user.disabled) return { user, binding: bindingOf(session) };
      await responses.restart(req, res);
      return undefined;
    }
    const actor = await setupActor(req, res);
    return actor ? { user: actor.user, binding: setupBindingOf(actor.session) } : undefined;
  }

  return {
    // POST only: it sends mail, so it needs the anti-forgery check a GET would skip.
    GeneratePin: {
      method: 'post',
      caller: 'open',
      async serve(req, res) {
        const query = parse(generatePinQuerySchema, lowerKeys(req.query), res);
        if (!query) return;
        const actor = await pinActor(req, res);
        if (!actor) return;
        const device = secondFactorDeviceOf(deps, req, res, actor.user);
        const sent = await twoFactor.generatePin(
          actor.user,
          actor.binding,
          query.forced,
          localeOf(res),
          device,
        );
        res.set('Cache-Control', 'no-store').json(sent);
      },
    },
    PinReference: {
      method: 'view',
      caller: 'open',
      async serve(req, res) {
        const actor = await pinActor(req, res);
        if (!actor) return;
        res.set('Cache-Control', 'no-store').json(await twoFactor.pinReference(actor.user.id, actor.binding));
      },
    },
  };
}
