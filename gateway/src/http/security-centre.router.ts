import express, { Router, type Request, type Response } from 'express';
import {
  removeDeviceRequestSchema,
  renameDeviceRequestSchema,
  signOutSessionRequestSchema,
  twoStepMethodRequestSchema,
  updateProfileRequestSchema,
} from 'shared-contracts';
import type {
  ChangeOutcome,
  SecurityCentreActor,
  SecurityCentreService,
} from '../identity/account/security-centre.service.js';
import type { RememberedBrowsers } from '../identity/mfa/remembered-browsers.js';
import type { SessionAuthService } from '../identity/session-auth.service.js';
import { sha256 } from '../infra/crypto/tokens.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
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
  rememberedBrowsers?: Pick<RememberedBrowsers, 'recognise'>;
}

/** Where "sign in again" leads: the sign-in page, back to the security centre afterwards. */
export const SIGN_IN_AGAIN_URL = `/account/login?returnUrl=${encodeURIComponent('/account/')}`;

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
      const remembered =
        deps.rememberedBrowsers?.recognise(browserOf(sessions, req, res), actor.user) ?? false;
      res.json(
        await securityCentre.view(actor, {
          remembered,
          customerId: session?.record.data.account?.customerId,
        }),
      );
    }),
  );

  router.post(
    '/RemoveTwoStepMethod',
    ...change,
    handle(async (req, res) => {
      const actor = await actorOf(req, res);
      if (!actor) return;
      const body = parse(twoStepMethodRequestSchema, req.body, res);
      if (!body) return;
      const outcome = await securityCentre.removeTwoStepMethod(actor, body.method);
      if (!refused(res, outcome)) res.json({});
    }),
  );

  router.post(
    '/SetDefaultTwoStepMethod',
    ...change,
    handle(async (req, res) => {
      const actor = await actorOf(req, res);
      if (!actor) return;
      const body = parse(twoStepMethodRequestSchema, req.body, res);
      if (!body) return;
      const outcome = await securityCentre.setDefaultTwoStepMethod(actor, body.method);
      if (!refused(res, outcome)) res.json({});
    }),
  );

  router.post(
    '/RenamePasskey',
    ...change,
    handle(async (req, res) => {
      const actor = await actorOf(req, res);
      if (!actor) return;
      const body = parse(renameDeviceRequestSchema, req.body, res);
      if (!body) return;
      const outcome = await securityCentre.renamePasskey(actor, body.id, body.name);
      if (!refused(res, outcome)) res.json({});
    }),
  );

  router.post(
    '/DeletePasskey',
    ...change,
    handle(async (req, res) => {
      const actor = await actorOf(req, res);
      if (!actor) return;
      const body = parse(removeDeviceRequestSchema, req.body, res);
      if (!body) return;
      const outcome = await securityCentre.deletePasskey(actor, body.id);
      if (!refused(res, outcome)) res.json({});
    }),
  );

  router.post(
    '/RegenerateRecoveryCodes',
    ...change,
    handle(async (req, res) => {
      const actor = await actorOf(req, res);
      if (!actor) return;
      const outcome = await securityCentre.regenerateRecoveryCodes(actor);
      if (!refused(res, outcome) && outcome.kind === 'done') res.json({ codes: outcome.value });
    }),
  );

  router.post(
    '/ChangePassword',
    ...change,
    handle(async (req, res) => {
      const actor = await actorOf(req, res);
      if (!actor) return;
      const outcome = await securityCentre.changePassword(actor, req.body);
      if (refused(res, outcome) || outcome.kind !== 'done') return;
      // The new password came with a new security stamp, which ended every session of the account (S15) — this
      // one too. This browser proved the current password: it goes on under a new id (S24) with the new stamp.
      const session = await sessions.current(req);
      const account = session?.record.data.account;
      if (!session || !account) return void res.json({});
      const next = await sessions.regenerate(req, res, session, {
        ...session.record.data,
        account: { ...account, securityStamp: outcome.value.securityStamp },
      });
      res.json({ token: antiforgery.issue(res, next.id) });
    }),
  );

  router.post(
    '/SignOutSession',
    ...change,
    handle(async (req, res) => {
      const actor = await actorOf(req, res);
      if (!actor) return;
      const body = parse(signOutSessionRequestSchema, req.body, res);
      if (!body) return;
      const outcome = await securityCentre.signOutSession(actor, body.id);
      if (!refused(res, outcome)) res.json({});
    }),
  );

  router.post(
    '/SignOutOtherSessions',
    ...change,
    handle(async (req, res) => {
      const actor = await actorOf(req, res);
      if (!actor) return;
      const outcome = await securityCentre.signOutOtherSessions(actor);
      if (!refused(res, outcome) && outcome.kind === 'done') res.json({ signedOut: outcome.value });
    }),
  );

  router.post(
    '/UpdateProfile',
    ...change,
    handle(async (req, res) => {
      const actor = await actorOf(req, res);
      if (!actor) return;
      const body = parse(updateProfileRequestSchema, req.body, res);
      if (!body) return;
      const outcome = await securityCentre.updateProfile(actor, body.displayName);
      if (!refused(res, outcome)) res.json({});
    }),
  );

  /**
   * `SignInAgain`: the way to a recent sign-in. Ends this browser's session (as sign-out does, S27), keeps the
   * username for the sign-in form, and answers where to go: the sign-in page, back to the security centre after.
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
      res.json({ redirect: SIGN_IN_AGAIN_URL, token: antiforgery.issue(res, next.id) });
    }),
  );

  return router;
}
