import express, { Router, type Request, type Response } from 'express';
import type { z } from 'zod';
import {
  confirmEmailChangeRequestSchema,
  confirmItsYouRequestSchema,
  confirmItsYouSecondFactorRequestSchema,
  forgetRememberedBrowserRequestSchema,
  removeDeviceRequestSchema,
  requestEmailChangeRequestSchema,
  renameDeviceRequestSchema,
  signOutSessionRequestSchema,
  twoStepMethodRequestSchema,
  updateProfileRequestSchema,
  safeReturnUrl,
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
import type { RememberedBrowsers } from '../identity/two-factor/remembered-browsers.js';
import type { SessionAuthService } from '../identity/session/session-auth.service.js';
import { sha256 } from '../infra/crypto/tokens.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import type { KnownDevices } from '../infra/throttle/known-devices.js';
import type { Antiforgery } from './antiforgery.js';
import { browserOf } from './browser.js';
import { localeOf } from './locale.js';
import { handle, parse } from './plumbing.js';
import { sendFormError, sendValidationProblem } from './problem.js';

/** Dependencies of {@link securityCentreRouter}. */
export interface SecurityCentreRouterDeps {
  sessions: RequestSessions;
  antiforgery: Antiforgery;
  auth: Pick<SessionAuthService, 'signedInUser'>;
  securityCentre: SecurityCentreService;
  rememberedBrowsers?: Pick<RememberedBrowsers, 'signedEntryKeys'>;
  /** "Confirm it's you" (issue 49, ADR 0045); without it the page can only `SignInAgain`. */
  confirmItsYou?: ConfirmItsYouService | undefined;
  /** The sign-in throttle's known devices (S7) and the 2FA counters' (issue 39), read from this browser's cookies. */
  knownDevices?: Pick<KnownDevices, 'recognise'> | undefined;
  secondFactorDevices?: Pick<KnownDevices, 'recognise'> | undefined;
}

/** One change call of the table in {@link securityCentreRouter}. */
interface Call {
  path: string;
  body: z.core.$ZodType | undefined;
  run: (actor: SecurityCentreActor, body: unknown, req: Request) => Promise<ChangeOutcome<unknown>>;
  answer: ((value: unknown, req: Request, res: Response) => unknown) | undefined;
}

/** A row of the table, typed by its body's schema and its outcome's value. */
function call<B, T = undefined>(
  path: string,
  body: z.core.$ZodType<B> | undefined,
  run: (actor: SecurityCentreActor, body: B, req: Request) => Promise<ChangeOutcome<T>>,
  answer?: (value: T, req: Request, res: Response) => unknown,
): Call {
  return {
    path,
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
  return `/account/login?returnUrl=${encodeURIComponent(back)}`;
}

/**
 * The security centre's calls under `/api/Account` (issue 43, ADR 0036): `SecurityCentreView` (GET) and the
 * changes (POST, JSON, anti-forgery header as every account call: S30). Thin: it reads who asks from the session
 * and hands plain values to the service. A change without a recent sign-in answers 403 `recentSignInRequired`; the
 * page then offers `SignInAgain`.
 */
export function securityCentreRouter(deps: SecurityCentreRouterDeps): Router {
  const { sessions, antiforgery, auth, securityCentre } = deps;
  const router = Router();
  const noStore = (_req: Request, res: Response, next: () => void) => {
    res.set('Cache-Control', 'no-store');
    next();
  };
  const change = [noStore, express.json({ limit: '16kb' }), antiforgery.middleware(() => false)];

  /** The signed-in asker, or undefined after answering 401 (a pending sign-in is not signed in: S20). */
  async function actorOf(req: Request, res: Response): Promise<SecurityCentreActor | undefined> {
    const signedIn = await auth.signedInUser(browserOf(sessions, req, res));
    const session = await sessions.current(req);
    if (!signedIn || !session) {
      sendFormError(res, 'notAuthenticated', 401);
      return undefined;
    }
    return {
      user: signedIn.user,
      authTime: signedIn.info.authTime,
      amr: signedIn.info.amr,
      sessionKey: sha256(session.id),
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
        if (outcome.retryAfterSeconds) res.set('Retry-After', String(outcome.retryAfterSeconds));
        sendFormError(res, 'tooManyAttempts', 429);
        return true;
      case 'invalid':
        sendValidationProblem(res, outcome.errors);
        return true;
    }
  }

  router.get(
    '/SecurityCentreView',
    noStore,
    handle(async (req, res) => {
      const actor = await actorOf(req, res);
      if (!actor) return;
      const session = await sessions.current(req);
      // Which listed remembered browser is this one (reading the cookie only: looking is not a use of it).
      const rememberedEntryKeys =
        deps.rememberedBrowsers?.signedEntryKeys(browserOf(sessions, req, res), actor.user) ?? [];
      res.json(
        await securityCentre.view(actor, {
          rememberedEntryKeys,
          customerId: session?.record.data.account?.customerId,
        }),
      );
    }),
  );

  /**
   * The changes, one row each: the call, its body's schema (none: the body is not read), the service's method, and
   * what a done change answers (200 `{}` unless said). Every row needs a signed-in asker (401), a body that parses
   * (400 errors map) and what the service says (403 `recentSignInRequired`, 404, 429, 400).
   */
  const calls: Call[] = [
    call('/RemoveTwoStepMethod', twoStepMethodRequestSchema, (actor, body) =>
      securityCentre.removeTwoStepMethod(actor, body.method),
    ),
    call('/SetDefaultTwoStepMethod', twoStepMethodRequestSchema, (actor, body) =>
      securityCentre.setDefaultTwoStepMethod(actor, body.method),
    ),
    call('/RenamePasskey', renameDeviceRequestSchema, (actor, body) =>
      securityCentre.renamePasskey(actor, body.id, body.name),
    ),
    call('/DeletePasskey', removeDeviceRequestSchema, (actor, body) =>
      securityCentre.deletePasskey(actor, body.id),
    ),
    call(
      '/RegenerateRecoveryCodes',
      undefined,
      (actor) => securityCentre.regenerateRecoveryCodes(actor),
      (codes) => ({ codes }),
    ),
    // The service parses the password change itself: its schema depends on the partner's rules.
    call(
      '/ChangePassword',
      undefined,
      (actor, _body, req) => securityCentre.changePassword(actor, req.body),
      async (changed, req, res) => {
        // The new password came with a new security stamp, which ended every session of the account (S15) — this
        // one too. This browser proved the current password: it goes on under a new id (S24) with the new stamp.
        const session = await sessions.current(req);
        const account = session?.record.data.account;
        if (!session || !account) return {};
        const next = await sessions.regenerate(req, res, session, {
          ...session.record.data,
          account: { ...account, securityStamp: changed.securityStamp },
        });
        return { token: antiforgery.issue(res, next.id) };
      },
    ),
    call('/SignOutSession', signOutSessionRequestSchema, (actor, body) =>
      securityCentre.signOutSession(actor, body.id),
    ),
    call(
      '/SignOutOtherSessions',
      undefined,
      (actor) => securityCentre.signOutOtherSessions(actor),
      (signedOut) => ({ signedOut }),
    ),
    call('/ForgetRememberedBrowser', forgetRememberedBrowserRequestSchema, (actor, body) =>
      securityCentre.forgetRememberedBrowser(actor, body.id),
    ),
    call(
      '/ForgetAllRememberedBrowsers',
      undefined,
      (actor) => securityCentre.forgetAllRememberedBrowsers(actor),
      (forgotten) => ({ forgotten }),
    ),
    call('/UpdateProfile', updateProfileRequestSchema, (actor, body) =>
      securityCentre.updateProfile(actor, body.displayName),
    ),
    call('/RequestEmailChange', requestEmailChangeRequestSchema, (actor, body) =>
      securityCentre.requestEmailChange(actor, body.email),
    ),
    // Opening the mailed link needs the signed-in account, not a recent sign-in: the request had one.
    call(
      '/ConfirmEmailChange',
      confirmEmailChangeRequestSchema,
      (actor, body) => securityCentre.confirmEmailChange(actor, body.token),
      (email) => ({ email }),
    ),
  ];

  for (const { path, body: schema, run, answer } of calls) {
    router.post(
      path,
      ...change,
      handle(async (req, res) => {
        const actor = await actorOf(req, res);
        if (!actor) return;
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

  if (deps.confirmItsYou) confirmItsYouCalls(router, deps, deps.confirmItsYou, change, noStore, actorOf);

  /**
   * `SignInAgain`: the way to a recent sign-in. Ends this browser's session (as sign-out does, S27), keeps the
   * username for the sign-in form, and answers where to go: the sign-in page, back to the body's `returnUrl` (a page
   * under `/account/`; the security centre when absent) after.
   */
  router.post(
    '/SignInAgain',
    ...change,
    handle(async (req, res) => {
      const actor = await actorOf(req, res);
      if (!actor) return;
      const next = await sessions.end(req, res);
      next.record.data.username = actor.user.username;
      await sessions.save(next);
      const returnUrl = (req.body as { returnUrl?: unknown } | undefined)?.returnUrl;
      res.json({ redirect: signInAgainUrl(returnUrl), token: antiforgery.issue(res, next.id) });
    }),
  );

  return router;
}

/**
 * "Confirm it's you" (issue 49, ADR 0045): `ConfirmItsYouView` (GET), `ConfirmItsYou` ({password} or {passkey})
 * and `ConfirmItsYouSecondFactor`. Signed-in callers only (401), anti-forgery header as every change (S30), bad
 * input 400 with the errors map, guesses throttled by the sign-in's own counters (429). Only a proved factor renews
 * the session's sign-in time (ADR 0005), under a new session id (S24) as a sign-in step would.
 */
function confirmItsYouCalls(
  router: Router,
  deps: SecurityCentreRouterDeps,
  confirmItsYou: ConfirmItsYouService,
  change: express.RequestHandler[],
  noStore: express.RequestHandler,
  actorOf: (req: Request, res: Response) => Promise<SecurityCentreActor | undefined>,
): void {
  const { sessions, antiforgery } = deps;

  function confirmingActor(req: Request, res: Response, actor: SecurityCentreActor): ConfirmingActor {
    const browser = browserOf(sessions, req, res);
    return {
      user: actor.user,
      sessionKey: actor.sessionKey,
      ip: req.ip ?? 'unknown',
      device: deps.knownDevices?.recognise(browser, actor.user),
      secondFactorDevice: deps.secondFactorDevices?.recognise(browser, actor.user),
    };
  }

  /** Answers an outcome; a confirmation renews the sign-in time of this session under a new id. */
  async function answer(req: Request, res: Response, outcome: ConfirmOutcome): Promise<void> {
    switch (outcome.kind) {
      case 'confirmed': {
        const session = await sessions.current(req);
        const account = session?.record.data.account;
        if (!session || !account) return sendFormError(res, 'notAuthenticated', 401);
        const next = await sessions.regenerate(req, res, session, {
          ...session.record.data,
          account: {
            ...account,
            authTime: Math.max(account.authTime, outcome.authTime),
            amr: [...new Set([...account.amr, ...outcome.amr])],
          },
        });
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
        if (outcome.retryAfterSeconds) res.set('Retry-After', String(outcome.retryAfterSeconds));
        return sendFormError(res, 'tooManyAttempts', 429);
      case 'unavailable':
        return sendFormError(res, 'serviceUnavailable', 503);
    }
  }

  router.get(
    '/ConfirmItsYouView',
    noStore,
    handle(async (req, res) => {
      const actor = await actorOf(req, res);
      if (!actor) return;
      res.json(await confirmItsYou.view(actor.user));
    }),
  );

  router.post(
    '/ConfirmItsYou',
    ...change,
    handle(async (req, res) => {
      const actor = await actorOf(req, res);
      if (!actor) return;
      const body = parse(confirmItsYouRequestSchema, req.body, res);
      if (!body) return;
      const confirming = confirmingActor(req, res, actor);
      if (body.passkey && body.password === undefined) {
        const session = await sessions.current(req);
        if (!session) return sendFormError(res, 'notAuthenticated', 401);
        const outcome = await confirmItsYou.confirmPasskey(confirming, body.passkey, session.id);
        if (outcome.reason) req.log.info({ reason: outcome.reason }, 'confirm it is you: passkey refused');
        return answer(req, res, outcome);
      }
      // Exactly one of the two: neither (or both) asks for the password, the dialog's first field.
      if (body.password === undefined || body.passkey)
        return sendValidationProblem(res, { password: ['required'] });
      await answer(req, res, await confirmItsYou.confirmPassword(confirming, body.password));
    }),
  );

  router.post(
    '/ConfirmItsYouSecondFactor',
    ...change,
    handle(async (req, res) => {
      const actor = await actorOf(req, res);
      if (!actor) return;
      const body = parse(confirmItsYouSecondFactorRequestSchema, req.body, res);
      if (!body) return;
      const session = await sessions.current(req);
      if (!session) return sendFormError(res, 'notAuthenticated', 401);
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
}
