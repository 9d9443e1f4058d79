import { Router, type Request, type Response } from 'express';
import type { z } from 'zod';
import {
  confirmEmailChangeRequestSchema,
  confirmItsYouRequestSchema,
  confirmItsYouSecondFactorRequestSchema,
  confirmItsYouSendCodeRequestSchema,
  forgetRememberedBrowserRequestSchema,
  removeDeviceRequestSchema,
  requestEmailChangeRequestSchema,
  renameDeviceRequestSchema,
  signOutSessionRequestSchema,
  twoStepMethodRequestSchema,
  updateProfileRequestSchema,
  safeReturnUrl,
  withReturnUrl,
} from 'shared-contracts';
import type {
  ChangeOutcome,
  SecurityCentreActor,
  SecurityCentreService,
} from '../identity/account/security-centre.service.js';
import {
  confirmItsYouBinding,
  type ConfirmingActor,
  type ConfirmItsYouService,
  type ConfirmOutcome,
} from '../identity/account/confirm-its-you.service.js';
import type { CaptchaContext, CaptchaService } from '../identity/captcha/captcha.service.js';
import { SEND_WINDOW_MS } from '../identity/two-factor/two-factor-context.js';
import type { RememberedBrowsers } from '../identity/two-factor/remembered-browsers.js';
import type { SessionChanges } from '../identity/account/session-changes.js';
import { sha256 } from '../infra/crypto/tokens.js';
import { ThrottleUnavailableError } from '../infra/throttle/login-throttle.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import type { KnownBrowsers } from '../infra/throttle/known-browsers.js';
import type { Antiforgery } from './antiforgery.js';
import { callerOf, type AccountCallName } from './account-access.js';
import { browserOf } from './browser.js';
import { localeOf } from './locale.js';
import { handle, parse } from './plumbing.js';
import { sendFormError, sendValidationProblem } from './problem.js';
import { sendTooManyAttempts } from './throttled.js';

/** Dependencies of {@link securityCentreRouter}. */
export interface SecurityCentreRouterDeps {
  sessions: RequestSessions;
  antiforgery: Antiforgery;
  /** The session changes of ChangePassword, SignInAgain and a confirmation. */
  sessionChanges: SessionChanges;
  securityCentre: SecurityCentreService;
  rememberedBrowsers?: Pick<RememberedBrowsers, 'signedEntryKeys'>;
  /** "Confirm it's you" (issue 49, ADR 0045); without it the page can only `SignInAgain`. */
  confirmItsYou?: ConfirmItsYouService | undefined;
  /** The sign-in throttle's known browsers (S7) and the 2FA counters' (issue 39), read from this browser's cookies. */
  knownBrowsers?: Pick<KnownBrowsers, 'recognise'> | undefined;
  secondFactorBrowsers?: Pick<KnownBrowsers, 'recognise'> | undefined;
  /**
   * The partner's captcha (ADR 0014): the dialog's password is guarded as the sign-in page's is (action `login`,
   * the account's own counters). Absent, the password is guarded by the sign-in throttle only.
   */
  captcha?: Pick<CaptchaService, 'admit' | 'assess' | 'providerFor'> | undefined;
}

/** The wait of a throttled outcome, when the service knows it. */
function waitOf(outcome: { retryAfterSeconds?: number }) {
  return outcome.retryAfterSeconds === undefined ? undefined : { seconds: outcome.retryAfterSeconds };
}

/** One change call of the table in {@link securityCentreRouter}. */
interface Call {
  name: AccountCallName;
  body: z.core.$ZodType | undefined;
  run: (actor: SecurityCentreActor, body: unknown, req: Request) => Promise<ChangeOutcome<unknown>>;
  answer: ((value: unknown, req: Request, res: Response) => unknown) | undefined;
}

/** A row of the table, typed by its body's schema and its outcome's value. */
function call<B, T = undefined>(
  name: AccountCallName,
  body: z.core.$ZodType<B> | undefined,
  run: (actor: SecurityCentreActor, body: B, req: Request) => Promise<ChangeOutcome<T>>,
  answer?: (value: T, req: Request, res: Response) => unknown,
): Call {
  return {
    name,
    body,
    run: run as Call['run'],
    answer: answer as Call['answer'],
  };
}

/** Where "sign in again" leads by default: the sign-in page, back to the security centre afterwards. */

/**
 * The sign-in page, coming back to `returnUrl` afterwards: a page of the signed-in account (`/account/…`, the
 * security centre, the 2FA set-up or passkey registration reached from it); anything else comes back to the centre.
 */
export function signInAgainUrl(returnUrl: unknown): string {
  const safe = safeReturnUrl(returnUrl);
  const back = safe.startsWith('/account/') && !safe.startsWith('/account/login') ? safe : '/account/';
  return withReturnUrl('/account/login', back);
}

/**
 * The security centre's calls under `/api/Account` (issue 43, ADR 0036): `SecurityCentreView` (GET) and the
 * changes (POST, JSON, anti-forgery header as every account call: S30). Mounted inside the account API (its gate,
 * its anti-forgery check, its access guard): who may call each is its row in `ACCOUNT_CALL_ACCESS` — signed in
 * (401), recently for a change (403 `recentSignInRequired`; the page then offers `SignInAgain`), the owner of the
 * named passkey, session or remembered browser (404). Thin: it reads the caller the guard resolved and hands plain
 * values to the service.
 */
export function securityCentreRouter(deps: SecurityCentreRouterDeps): Router {
  const { sessions, antiforgery, securityCentre } = deps;
  const router = Router();

  /** The signed-in asker the access guard let through, as the service reads it. */
  function actorOf(req: Request, res: Response, name: AccountCallName): SecurityCentreActor {
    const caller = callerOf(res, name as 'SecurityCentreView');
    return {
      user: caller.user,
      authTime: caller.info.authTime,
      amr: caller.info.amr,
      sessionKey: sha256(caller.session.id),
      host: req.hostname,
      locale: localeOf(res),
      ip: req.ip ?? null,
    };
  }

  /** Answers an outcome that is not `done`; true when it did. */
  function refused<T>(res: Response, outcome: ChangeOutcome<T>): boolean {
    switch (outcome.kind) {
      case 'done':
        return false;
      case 'recentSignInRequired':
        sendFormError(res, 'recentSignInRequired', 403);
        return true;
      case 'notFound':
        sendFormError(res, 'notFound', 404);
        return true;
      case 'throttled':
        sendTooManyAttempts(res, waitOf(outcome), 429);
        return true;
      case 'invalid':
        sendValidationProblem(res, outcome.errors);
        return true;
    }
  }

  router.get(
    '/SecurityCentreView',
    handle(async (req, res) => {
      const actor = actorOf(req, res, 'SecurityCentreView');
      const { session } = callerOf(res, 'SecurityCentreView');
      // Which listed remembered browser is this one (reading the cookie only: looking is not a use of it).
      const rememberedEntryKeys =
        deps.rememberedBrowsers?.signedEntryKeys(browserOf(sessions, req, res), actor.user) ?? [];
      res.json(
        await securityCentre.view(actor, {
          rememberedEntryKeys,
          customerId: session.record.data.account?.customerId,
        }),
      );
    }),
  );

  /**
   * The changes, one row each: the call, its body's schema (none: the body is not read), the service's method, and
   * what a done change answers (200 `{}` unless said). Every row needs the caller its policy asks for (the access
   * guard), a body that parses (400 errors map) and what the service says (403 `recentSignInRequired`, 404, 429, 400).
   */
  const calls: Call[] = [
    call('RemoveTwoStepMethod', twoStepMethodRequestSchema, (actor, body) =>
      securityCentre.removeTwoStepMethod(actor, body.method),
    ),
    call('SetDefaultTwoStepMethod', twoStepMethodRequestSchema, (actor, body) =>
      securityCentre.setDefaultTwoStepMethod(actor, body.method),
    ),
    call('RenamePasskey', renameDeviceRequestSchema, (actor, body) =>
      securityCentre.renamePasskey(actor, body.id, body.name),
    ),
    call('DeletePasskey', removeDeviceRequestSchema, (actor, body) =>
      securityCentre.deletePasskey(actor, body.id),
    ),
    call(
      'RegenerateRecoveryCodes',
      undefined,
      (actor) => securityCentre.regenerateRecoveryCodes(actor),
      (codes) => ({ codes }),
    ),
    // The service parses the password change itself: its schema depends on the partner's rules.
    call(
      'ChangePassword',
      undefined,
      (actor, _body, req) => securityCentre.changePassword(actor, req.body),
      async (changed, req, res) => {
        // The new password came with a new security stamp, which ended every session of the account (S15) — this
        // one too. This browser proved the current password: it goes on under a new id (S24) with the new stamp.
        const next = await deps.sessionChanges.continueWithStamp(
          browserOf(sessions, req, res),
          changed.securityStamp,
        );
        return next ? { token: antiforgery.issue(res, next.id) } : {};
      },
    ),
    call('SignOutSession', signOutSessionRequestSchema, (actor, body) =>
      securityCentre.signOutSession(actor, body.id),
    ),
    call(
      'SignOutOtherSessions',
      undefined,
      (actor) => securityCentre.signOutOtherSessions(actor),
      (signedOut) => ({ signedOut }),
    ),
    call('ForgetRememberedBrowser', forgetRememberedBrowserRequestSchema, (actor, body) =>
      securityCentre.forgetRememberedBrowser(actor, body.id),
    ),
    call(
      'ForgetAllRememberedBrowsers',
      undefined,
      (actor) => securityCentre.forgetAllRememberedBrowsers(actor),
      (forgotten) => ({ forgotten }),
    ),
    call('UpdateProfile', updateProfileRequestSchema, (actor, body) =>
      securityCentre.updateProfile(actor, body.displayName),
    ),
    call('RequestEmailChange', requestEmailChangeRequestSchema, (actor, body) =>
      securityCentre.requestEmailChange(actor, body.email),
    ),
    // Opening the mailed link needs the signed-in account, not a recent sign-in: the request had one.
    call(
      'ConfirmEmailChange',
      confirmEmailChangeRequestSchema,
      (actor, body) => securityCentre.confirmEmailChange(actor, body.token),
      (email) => ({ email }),
    ),
  ];

  for (const { name, body: schema, run, answer } of calls) {
    router.post(
      `/${name}`,
      handle(async (req, res) => {
        const actor = actorOf(req, res, name);
        let body: unknown;
        if (schema) {
          body = parse(schema, req.body, res);
          if (body === undefined) return;
        }
        const outcome = await run(actor, body, req);
        if (refused(res, outcome) || outcome.kind !== 'done') return;
        res.json(answer ? await answer('value' in outcome ? outcome.value : undefined, req, res) : {});
      }),
    );
  }

  if (deps.confirmItsYou) confirmItsYouCalls(router, deps, deps.confirmItsYou, actorOf);

  /**
   * `SignInAgain`: the way to a recent sign-in. Ends this browser's session (as sign-out does, S27), keeps the
   * username for the sign-in form, and answers where to go: the sign-in page, back to the body's `returnUrl` (a page
   * under `/account/`; the security centre when absent) after.
   */
  router.post(
    '/SignInAgain',
    handle(async (req, res) => {
      const { user } = callerOf(res, 'SignInAgain');
      const next = await deps.sessionChanges.signInAgain(browserOf(sessions, req, res), user.username);
      const returnUrl = (req.body as { returnUrl?: unknown } | undefined)?.returnUrl;
      res.json({ redirect: signInAgainUrl(returnUrl), token: antiforgery.issue(res, next.id) });
    }),
  );

  return router;
}

/**
 * "Confirm it's you" (issue 49, ADR 0045): `ConfirmItsYouView` (GET), `ConfirmItsYou` ({password} or {passkey}),
 * `ConfirmItsYouSendCode` (a texted code or mailed PIN, on request) and `ConfirmItsYouSecondFactor`. Signed-in callers only (401), anti-forgery header as every change (S30), bad
 * input 400 with the errors map, guesses throttled by the sign-in's own counters (429). Only a proved factor renews
 * the session's sign-in time (ADR 0005), under a new session id (S24) as a sign-in step would.
 */
function confirmItsYouCalls(
  router: Router,
  deps: SecurityCentreRouterDeps,
  confirmItsYou: ConfirmItsYouService,
  actorOf: (req: Request, res: Response, name: AccountCallName) => SecurityCentreActor,
): void {
  const { sessions, antiforgery } = deps;

  function confirmingActor(req: Request, res: Response, actor: SecurityCentreActor): ConfirmingActor {
    const browser = browserOf(sessions, req, res);
    return {
      user: actor.user,
      sessionKey: actor.sessionKey,
      ip: req.ip ?? 'unknown',
      knownBrowser: deps.knownBrowsers?.recognise(browser, actor.user),
      secondFactorBrowser: deps.secondFactorBrowsers?.recognise(browser, actor.user),
    };
  }

  function captchaContext(req: Request, res: Response): CaptchaContext {
    const { session } = callerOf(res, 'ConfirmItsYou');
    return {
      browser: browserOf(sessions, req, res),
      host: req.hostname,
      ip: req.ip ?? 'unknown',
      sessionId: session.id,
    };
  }

  /**
   * The partner's captcha in front of the password (ADR 0014, S9), as `captchaGuard` stands in front of `Login`:
   * true when the password may be checked; else answered here (400 `captchaRequired`, or 503 when the counters'
   * store is down: fail closed, S8).
   */
  async function passedCaptcha(req: Request, res: Response, actor: SecurityCentreActor): Promise<boolean> {
    if (!deps.captcha) return true;
    try {
      if (await deps.captcha.admit(captchaContext(req, res), 'login', actor.user.username)) return true;
      sendFormError(res, 'captchaRequired');
    } catch (error) {
      if (!(error instanceof ThrottleUnavailableError)) throw error;
      sendFormError(res, 'serviceUnavailable', 503);
    }
    return false;
  }

  /** Answers an outcome; a confirmation renews the sign-in time of this session under a new id. */
  async function answer(req: Request, res: Response, outcome: ConfirmOutcome): Promise<void> {
    switch (outcome.kind) {
      case 'confirmed': {
        const next = await deps.sessionChanges.renewSignIn(browserOf(sessions, req, res), outcome);
        if (!next) return sendFormError(res, 'notAuthenticated', 401);
        // The anti-forgery token is bound to the session id: the new one goes out as the cookie the client reads
        // (and in the answer, as ChangePassword's does).
        res.json({ confirmed: true, token: antiforgery.issue(res, next.id) });
        return;
      }
      case 'secondFactor':
        res.json({ confirmed: false, secondFactor: outcome.methods });
        return;
      case 'invalid':
        return sendValidationProblem(res, outcome.errors);
      case 'throttled':
        return sendTooManyAttempts(res, waitOf(outcome), 429);
      case 'unavailable':
        return sendFormError(res, 'serviceUnavailable', 503);
    }
  }

  router.get(
    '/ConfirmItsYouView',
    handle(async (req, res) => {
      const actor = actorOf(req, res, 'ConfirmItsYouView');
      const view = await confirmItsYou.view(actor.user);
      const provider = view.password ? await deps.captcha?.providerFor(req.hostname) : undefined;
      if (!deps.captcha || !provider) return void res.json(view);
      const { required } = await deps.captcha.assess(captchaContext(req, res), 'login', actor.user.username);
      res.json({ ...view, captcha: provider, captchaRequired: required });
    }),
  );

  router.post(
    '/ConfirmItsYou',
    handle(async (req, res) => {
      const actor = actorOf(req, res, 'ConfirmItsYou');
      const body = parse(confirmItsYouRequestSchema, req.body, res);
      if (!body) return;
      const confirming = confirmingActor(req, res, actor);
      if (body.passkey && body.password === undefined) {
        const { session } = callerOf(res, 'ConfirmItsYou');
        const outcome = await confirmItsYou.confirmPasskey(confirming, body.passkey, session.id);
        if (outcome.reason) req.log.info({ reason: outcome.reason }, 'confirm it is you: passkey refused');
        return answer(req, res, outcome);
      }
      // Exactly one of the two: neither (or both) asks for the password, the dialog's first field.
      if (body.password === undefined || body.passkey)
        return sendValidationProblem(res, { password: ['required'] });
      if (!(await passedCaptcha(req, res, actor))) return;
      await answer(req, res, await confirmItsYou.confirmPassword(confirming, body.password));
    }),
  );

  router.post(
    '/ConfirmItsYouSecondFactor',
    handle(async (req, res) => {
      const actor = actorOf(req, res, 'ConfirmItsYouSecondFactor');
      const body = parse(confirmItsYouSecondFactorRequestSchema, req.body, res);
      if (!body) return;
      const { session } = callerOf(res, 'ConfirmItsYouSecondFactor');
      await answer(
        req,
        res,
        await confirmItsYou.confirmSecondFactor(
          confirmingActor(req, res, actor),
          body.method,
          body.code,
          confirmItsYouBinding(session.id),
        ),
      );
    }),
  );

  router.post(
    '/ConfirmItsYouSendCode',
    handle(async (req, res) => {
      const actor = actorOf(req, res, 'ConfirmItsYouSendCode');
      const body = parse(confirmItsYouSendCodeRequestSchema, req.body, res);
      if (!body) return;
      const { session } = callerOf(res, 'ConfirmItsYouSendCode');
      const outcome = await confirmItsYou.sendCode(
        confirmingActor(req, res, actor),
        body.method,
        confirmItsYouBinding(session.id),
        localeOf(res),
      );
      switch (outcome.kind) {
        case 'sent':
          return void res.set('Cache-Control', 'no-store').json(outcome.answer);
        case 'invalid':
          return sendValidationProblem(res, outcome.errors);
        case 'throttled':
          // The texts and mails one account may cause count over SEND_WINDOW_MS (ADR 0043); the centre's 429.
          return sendTooManyAttempts(res, { ms: SEND_WINDOW_MS }, 429);
        case 'failed':
          return sendFormError(res, 'codeNotSent');
      }
    }),
  );
}
