import { Router, type Request, type Response } from 'express';
import {
  generatePhoneVerificationRequestSchema,
  generatePinQuerySchema,
  loginWith2faRequestSchema,
  loginWithRecoveryCodeRequestSchema,
  RECOVERY_CODE_LENGTH,
  redeemRecoveryCodeQuerySchema,
  redeemStateQuerySchema,
  returnUrlOf,
  sendOtpRequestSchema,
  validate2faSetupCodeRequestSchema,
} from 'shared-contracts';
import type {
  CodeBinding,
  CodeOutcome,
  SendOutcome,
  TwoFactorService,
} from '../identity/mfa/two-factor.service.js';
import { sha256 } from '../infra/crypto/tokens.js';
import type { ReturnUrls } from '../identity/return-urls.service.js';
import type { SessionAuthService } from '../identity/session-auth.service.js';
import type { SignInService } from '../identity/sign-in/sign-in.service.js';
import type { Session } from '../infra/sessions/session-manager.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import type { KnownDevices } from '../infra/throttle/known-devices.js';
import { localeOf } from './locale.js';
import { handle, parse, view } from './plumbing.js';
import { sendFormError, sendValidationProblem } from './problem.js';
import type { SignInResponses } from './sign-in-responses.js';
import { stepOrRecentAccount, type StepOrAccountActor } from './step-or-account.js';

/** Dependencies of {@link twoFactorRouter}. */
export interface TwoFactorRouterDeps {
  sessions: RequestSessions;
  signIn: SignInService;
  auth: SessionAuthService;
  twoFactor: TwoFactorService;
  returnUrls: ReturnUrls;
  responses: SignInResponses;
  /** Browsers where the account completed a sign-in with its second factor: their own counter (issue 39). */
  secondFactorDevices?: KnownDevices | undefined;
}

const TWO_FACTOR_STEP = 'two-factor';
const SETUP_STEP = 'two-factor-setup';

/** Who runs the set-up wizard: a sign-in waiting at its set-up step, or a recently signed-in account (S21). */
type SetupActor = StepOrAccountActor;

/**
 * Two-factor and codes (SPEC.md §7): the second-factor sign-in, recovery codes and the set-up wizard (ADR 0008).
 * The sign-in calls answer only while a pending sign-in waits at the 2FA step (`requireStep`); the wizard's calls
 * answer that step's pending sign-in or a signed-in account whose full sign-in is recent (S21).
 */
export function twoFactorRouter(deps: TwoFactorRouterDeps): Router {
  const { sessions, signIn, twoFactor, responses } = deps;
  const router = Router();
  const atTwoFactor = responses.requireStep(TWO_FACTOR_STEP);

  /** The user of the pending sign-in (requireStep already checked it waits at the step). */
  async function pending(req: Request): Promise<{ session: Session; userId: string } | undefined> {
    const session = await sessions.current(req);
    const userId = session?.record.data.pending?.userId;
    return session && userId ? { session, userId } : undefined;
  }

  /** This browser's id when the account completed a sign-in with its second factor here before. */
  async function knownDevice(req: Request, userId: string): Promise<string | undefined> {
    if (!deps.secondFactorDevices) return undefined;
    const user = await twoFactor.user(userId);
    return user ? deps.secondFactorDevices.recognise(req, user) : undefined;
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
    responses.sendOutcome(res, await signIn.completeStep(req, res, session, TWO_FACTOR_STEP, amr));
  }

  /**
   * Who asks for a mailed PIN: the pending sign-in at the 2FA step (its code binds to that sign-in), else the
   * set-up wizard's caller (the code binds to this set-up). Answers for itself and returns undefined otherwise.
   */
  async function pinActor(
    req: Request,
    res: Response,
  ): Promise<{ user: SetupActor['user']; binding: CodeBinding } | undefined> {
    const session = await sessions.current(req);
    if (session && signIn.isAtStep(session, TWO_FACTOR_STEP)) {
      const user = await twoFactor.user(session.record.data.pending!.userId);
      if (user && !user.disabled) return { user, binding: bindingOf(session) };
      await responses.restart(req, res);
      return undefined;
    }
    const actor = await setupActor(req, res);
    return actor ? { user: actor.user, binding: setupBindingOf(actor.session) } : undefined;
  }

  for (const method of ['get', 'post'] as const) {
    router[method](
      '/LoginWith2FAView',
      atTwoFactor,
      handle(async (req, res) => {
        const found = await pending(req);
        if (!found) return responses.restart(req, res);
        res.set('Cache-Control', 'no-store').json(await twoFactor.loginView(found.userId));
      }),
    );
    router[method](
      '/LoginWithRecoveryCodeView',
      atTwoFactor,
      handle((_req, res) => {
        res.set('Cache-Control', 'no-store').json({ codeLength: RECOVERY_CODE_LENGTH });
        return Promise.resolve();
      }),
    );
  }

  router.post(
    '/LoginWith2FA',
    atTwoFactor,
    handle(async (req, res) => {
      const body = parse(loginWith2faRequestSchema, req.body, res);
      if (!body) return;
      const found = await pending(req);
      if (!found) return responses.restart(req, res);
      const outcome = await twoFactor.verifySignInCode(
        found.userId,
        body.method,
        body.code,
        bindingOf(found.session),
        await knownDevice(req, found.userId),
      );
      // "Remember this browser" is lasting state: it waits for the sign-in to complete (issue 39).
      if (outcome === 'ok' && body.rememberBrowser && found.session.record.data.pending)
        found.session.record.data.pending.rememberBrowser = true;
      await finishStep(req, res, found.session, outcome, 'code', ['otp', 'mfa']);
    }),
  );

  router.post(
    '/LoginWithRecoveryCode',
    atTwoFactor,
    handle(async (req, res) => {
      const body = parse(loginWithRecoveryCodeRequestSchema, req.body, res);
      if (!body) return;
      const found = await pending(req);
      if (!found) return responses.restart(req, res);
      const outcome = await twoFactor.redeemRecoveryCode(
        found.userId,
        body.recoveryCode,
        await knownDevice(req, found.userId),
      );
      await finishStep(req, res, found.session, outcome, 'recoveryCode', ['mfa']);
    }),
  );

  router.post(
    '/SendOTP',
    atTwoFactor,
    handle(async (req, res) => {
      if (!parse(sendOtpRequestSchema, req.body ?? {}, res)) return;
      const found = await pending(req);
      const user = found ? await twoFactor.user(found.userId) : undefined;
      if (!found || !user || user.disabled) return responses.restart(req, res);
      sendCodeOutcome(res, await twoFactor.sendSignInSms(user, bindingOf(found.session), localeOf(res)));
    }),
  );

  // POST only: it sends mail, so it needs the anti-forgery check a GET would skip.
  router.post(
    '/GeneratePin',
    handle(async (req, res) => {
      const query = parse(generatePinQuerySchema, lowerKeys(req.query), res);
      if (!query) return;
      const actor = await pinActor(req, res);
      if (!actor) return;
      const sent = await twoFactor.generatePin(actor.user, actor.binding, query.forced, localeOf(res));
      res.set('Cache-Control', 'no-store').json(sent);
    }),
  );

  view(router, '/PinReference', async (req, res) => {
    const actor = await pinActor(req, res);
    if (!actor) return;
    res.set('Cache-Control', 'no-store').json(await twoFactor.pinReference(actor.user.id, actor.binding));
  });

  router.post(
    '/GeneratePhoneVerification',
    handle(async (req, res) => {
      const actor = await setupActor(req, res);
      if (!actor) return;
      const body = parse(generatePhoneVerificationRequestSchema, req.body, res);
      if (!body) return;
      const binding = setupBindingOf(actor.session);
      sendCodeOutcome(
        res,
        await twoFactor.sendPhoneVerification(actor.user, binding, body.phone, localeOf(res)),
      );
    }),
  );

  /** The wizard's caller: the set-up step of a pending sign-in, or a recently signed-in account (S21). */
  const setupActor = stepOrRecentAccount({ ...deps, responses }, SETUP_STEP);

  view(router, '/Setup2FAView', async (req, res) => {
    const actor = await setupActor(req, res);
    if (!actor) return;
    res.set('Cache-Control', 'no-store').json(await twoFactor.setupView(actor.user, actor.duringSignIn));
  });

  router.post(
    '/Validate2faSetupCode',
    handle(async (req, res) => {
      const actor = await setupActor(req, res);
      if (!actor) return;
      const body = parse(validate2faSetupCodeRequestSchema, req.body, res);
      if (!body) return;
      const binding = setupBindingOf(actor.session);
      const result =
        body.method === 'authenticator'
          ? await twoFactor.confirmAuthenticator(actor.user.id, body.code)
          : body.method === 'sms'
            ? await twoFactor.confirmSms(actor.user.id, body.code, binding)
            : await twoFactor.confirmPin(actor.user.id, body.code, binding);
      if (result.kind === 'throttled') {
        res.set('Retry-After', '900');
        return sendFormError(res, 'tooManyAttempts');
      }
      if (result.kind !== 'ok') return sendFieldError(res, 'code');
      const account = actor.session.record.data.account;
      if (!actor.duringSignIn && account) {
        // The code just proved the new factor: the rest of the wizard (codes, done) counts as a full sign-in.
        account.amr = [...new Set([...account.amr, 'otp', 'mfa'])];
        await sessions.save(actor.session);
      }
      res.set('Cache-Control', 'no-store').json({ recoveryCodesId: result.recoveryCodesId });
    }),
  );

  // POST only: showing the set uses it up, so it needs the anti-forgery check a GET would skip.
  router.post(
    '/RedeemRecoveryCode',
    handle(async (req, res) => {
      const actor = await setupActor(req, res);
      if (!actor) return;
      const query = parse(redeemRecoveryCodeQuerySchema, lowerKeys(req.query), res);
      if (!query) return;
      if (query.id === undefined) {
        // On demand, from the signed-in account only (the wizard of a sign-in has its set's id).
        if (actor.duringSignIn) return sendValidationProblem(res, { id: ['required'] });
        const fresh = await twoFactor.regenerateRecoveryCodes(actor.user.id);
        if (!fresh) return sendFormError(res, 'stepNotAllowed');
        res.set('Cache-Control', 'no-store').json({ codes: fresh });
        return;
      }
      const codes = await twoFactor.takeRecoveryCodes(actor.user.id, query.id);
      if (!codes) return sendFormError(res, 'recoveryCodesUnavailable');
      res.set('Cache-Control', 'no-store').json({ codes });
    }),
  );

  view(router, '/RedeemState', async (req, res) => {
    const actor = await setupActor(req, res);
    if (!actor) return;
    const query = parse(redeemStateQuerySchema, lowerKeys(req.query), res);
    if (!query) return;
    const available = await twoFactor.recoveryCodesAvailable(actor.user.id, query.state);
    res.set('Cache-Control', 'no-store').json({ available });
  });

  router.post(
    '/EnableTwoFactor',
    handle(async (req, res) => {
      const actor = await setupActor(req, res);
      if (!actor) return;
      // The wizard ends here only once a factor is on (Validate2faSetupCode), never by skipping it.
      if ((await twoFactor.methodsOf(actor.user.id)).length === 0)
        return sendFormError(res, 'stepNotAllowed');
      if (actor.duringSignIn) {
        const outcome = await signIn.completeStep(req, res, actor.session, SETUP_STEP, ['otp', 'mfa']);
        return responses.sendOutcome(res, outcome);
      }
      const returnUrl = await deps.returnUrls.safe(returnUrlOf(req.query));
      responses.redirect(res, returnUrl, actor.session);
    }),
  );

  return router;
}

/**
 * The key a mailed or texted code of a pending sign-in is kept under: this session (whose id changed when the
 * password passed, S24) and this sign-in's start, so a code of another pending sign-in is not found (S18).
 */
function bindingOf(session: Session): CodeBinding {
  return sha256(`sign-in|${session.id}|${session.record.data.pending?.startedAt ?? ''}`);
}

/** The key of a set-up's codes (phone verification, the PIN that proves the address): this session's wizard. */
function setupBindingOf(session: Session): CodeBinding {
  return sha256(`setup|${session.id}|${session.record.data.pending?.startedAt ?? 'account'}`);
}

/** Answers a text request: what went out (or the wait), too many (S6), or not deliverable. */
function sendCodeOutcome(res: Response, outcome: SendOutcome): void {
  if (outcome === 'throttled') {
    res.set('Retry-After', '3600');
    return sendFormError(res, 'tooManyAttempts');
  }
  if (outcome === 'failed') return sendFormError(res, 'codeNotSent');
  res.set('Cache-Control', 'no-store').json(outcome);
}

/** The 400 errors map with `invalidCode` on the field (the code was wrong, expired or used). */
function sendFieldError(res: Response, field: string): void {
  sendValidationProblem(res, { [field]: ['invalidCode'] });
}

/** Query keys are case-insensitive (`Id`, `id`); a repeated key stays an array and fails the schema. */
function lowerKeys(query: Request['query']): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).map(([key, value]) => [key.toLowerCase(), value]));
}
