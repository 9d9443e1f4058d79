import { Router, type Request, type Response } from 'express';
import {
  credentialOptionsQuerySchema,
  deviceRegistrationPayloadSchema,
  removeDeviceRequestSchema,
  renameDeviceRequestSchema,
  returnUrlOf,
  secureLoginQuerySchema,
  secureSignInPayloadSchema,
  skipFidoRequestSchema,
} from 'shared-contracts';
import type { TwoFactorService } from '../identity/two-factor/two-factor.service.js';
import type { ReturnUrls } from '../identity/applications/return-urls.service.js';
import type { SessionAuthService } from '../identity/session/session-auth.service.js';
import type { SignInService } from '../identity/sign-in/sign-in.service.js';
import { deviceOfferStep } from '../identity/passkeys/device-offer.step.js';
import type { WebauthnService } from '../identity/passkeys/webauthn.service.js';
import { sessionAmr } from '../identity/account/ways-in.js';
import type { SourceLimit } from '../infra/throttle/source-limit.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import { handle, parse, view } from './plumbing.js';
import { sendFormError } from './problem.js';
import type { SignInResponses } from './sign-in-responses.js';
import { stepOrRecentAccount, type StepOrAccountActor } from './step-or-account.js';
import { stepRouter } from './step-router.js';
import { browserOf } from './browser.js';

/** Dependencies of {@link secureSignInRouter}. */
export interface SecureSignInRouterDeps {
  sessions: RequestSessions;
  signIn: SignInService;
  auth: SessionAuthService;
  twoFactor: Pick<TwoFactorService, 'recentFullSignIn' | 'user'>;
  webauthn: WebauthnService;
  /** Per-source cap on AssertionOptions: each stores a challenge for whoever asks. */
  assertionLimit: SourceLimit;
  returnUrls: ReturnUrls;
  responses: SignInResponses;
}

/** Who registers a device: the device-offer step of a pending sign-in, or a recently signed-in account (S21). */
type Registrant = StepOrAccountActor;

/**
 * Secure sign-in (SPEC.md §7, §4, ADR 0016): AssertionOptions and SecureLogin for anyone (a passkey sign-in starts
 * over like Login), CredentialOptions, RegisterCredential and SkipFido for the device-offer step of a pending
 * sign-in or a signed-in account whose full sign-in is recent (S21). Failures are quiet to the browser (one code,
 * no reason); the reason goes to the log.
 */
export function secureSignInRouter(deps: SecureSignInRouterDeps): Router {
  const { sessions, signIn, auth, webauthn, responses } = deps;
  const router = Router();

  router.post(
    '/AssertionOptions',
    handle(async (req, res) => {
      const limit = await deps.assertionLimit.take(req.ip ?? 'unknown');
      if (!limit.allowed) {
        if ('unavailable' in limit) return sendFormError(res, 'serviceUnavailable', 503);
        res.set('Retry-After', String(limit.retryAfterSeconds));
        return sendFormError(res, 'tooManyAttempts');
      }
      // The challenge is bound to the session id; an issued anonymous id is recognised by its MAC, so nothing is
      // stored for the browser until it signs in.
      const session = await sessions.ensure(req, res);
      res.set('Cache-Control', 'no-store').json(await webauthn.assertionOptions(session.id));
    }),
  );

  router.post(
    '/SecureLogin',
    handle(async (req, res) => {
      const query = parse(secureLoginQuerySchema, req.query, res);
      if (!query) return;
      const body = parse(secureSignInPayloadSchema, req.body, res);
      if (!body) return;
      const found = await sessions.lookup(req);
      if (found.kind !== 'active') return responses.timedOut(req, res);
      const outcome = await webauthn.verifyAssertion(body, found.session.id);
      if (outcome.kind !== 'ok') {
        req.log.info({ reason: outcome.reason }, 'secure sign-in refused');
        return sendFormError(res, 'secureSignInFailed');
      }
      const returnUrl = await deps.returnUrls.safe(query.returnUrl);
      responses.sendOutcome(
        res,
        await signIn.deviceSignIn(browserOf(sessions, req, res), found.session, outcome.user, {
          returnUrl,
          ip: req.ip ?? 'unknown',
          credentialId: outcome.credential.id,
        }),
      );
    }),
  );

  /** The registering account: the offer step of a pending sign-in, or a recently signed-in account (S21). */
  const registrant = stepOrRecentAccount({ ...deps, responses }, deviceOfferStep.id);

  /** Where a registrant goes next: the rest of the sign-in, or the returnUrl of a signed-in account. */
  async function carryOn(req: Request, res: Response, actor: Registrant): Promise<void> {
    if (actor.duringSignIn) {
      return responses.sendOutcome(
        res,
        await signIn.completeStep(browserOf(sessions, req, res), actor.session, deviceOfferStep.id),
      );
    }
    responses.redirect(res, await deps.returnUrls.safe(returnUrlOf(req.query)), actor.session);
  }

  // The device-offer step's calls: its router is built from the step's declaration.
  router.use(
    stepRouter(responses, [deviceOfferStep], {
      CredentialOptions: {
        method: 'post',
        caller: 'open',
        async serve(req, res) {
          const actor = await registrant(req, res);
          if (!actor) return;
          const query = parse(credentialOptionsQuerySchema, displayNameQuery(req), res);
          if (!query) return;
          const options = await webauthn.registrationOptions(actor.user, query.displayName, actor.session.id);
          res.set('Cache-Control', 'no-store').json(options);
        },
      },
      RegisterCredential: {
        method: 'post',
        caller: 'open',
        async serve(req, res) {
          const actor = await registrant(req, res);
          if (!actor) return;
          const body = parse(deviceRegistrationPayloadSchema, req.body, res);
          if (!body) return;
          const outcome = await webauthn.register(
            body,
            actor.user.id,
            actor.session.id,
            sessionAmr(actor.session),
          );
          if (outcome.kind !== 'ok') {
            req.log.info({ reason: outcome.reason }, 'device registration refused');
            // SPEC.md §4: any failure shows the device-registration error against the whole form.
            return sendFormError(res, 'deviceRegistrationError');
          }
          await carryOn(req, res, actor);
        },
      },
      SkipFido: {
        method: 'post',
        caller: 'open',
        async serve(req, res) {
          const actor = await registrant(req, res);
          if (!actor) return;
          const body = parse(skipFidoRequestSchema, req.body, res);
          if (!body) return;
          if (body.remember) await webauthn.skipOffer(actor.user.id);
          await carryOn(req, res, actor);
        },
      },
    }),
  );

  /**
   * The signed-in account for the manage-devices calls; with `recent`, its full sign-in must be recent (S21: changing
   * how one signs in). Answers for itself (and returns undefined) otherwise.
   */
  async function owner(req: Request, res: Response, recent: boolean) {
    const signedIn = await auth.signedInUser(browserOf(sessions, req, res));
    if (!signedIn) {
      sendFormError(res, 'notAuthenticated', 401);
      return undefined;
    }
    const { info } = signedIn;
    if (recent && !(await deps.twoFactor.recentFullSignIn(signedIn.user.id, info.authTime, info.amr))) {
      sendFormError(res, 'recentSignInRequired', 403);
      return undefined;
    }
    return signedIn.user;
  }

  view(router, '/Devices', async (req, res) => {
    const user = await owner(req, res, false);
    if (!user) return;
    res.set('Cache-Control', 'no-store').json({ devices: await webauthn.devicesOf(user.id) });
  });

  router.post(
    '/RenameDevice',
    handle(async (req, res) => {
      const user = await owner(req, res, true);
      if (!user) return;
      const body = parse(renameDeviceRequestSchema, req.body, res);
      if (!body) return;
      if (!(await webauthn.renameDevice(user.id, body.id, body.name)))
        return sendFormError(res, 'notFound', 404);
      res.set('Cache-Control', 'no-store').json({ devices: await webauthn.devicesOf(user.id) });
    }),
  );

  router.post(
    '/RemoveDevice',
    handle(async (req, res) => {
      const user = await owner(req, res, true);
      if (!user) return;
      const body = parse(removeDeviceRequestSchema, req.body, res);
      if (!body) return;
      if (!(await webauthn.removeDevice(user.id, body.id))) return sendFormError(res, 'notFound', 404);
      res.set('Cache-Control', 'no-store').json({ devices: await webauthn.devicesOf(user.id) });
    }),
  );

  return router;
}

/** `displayName` by case-insensitive name; a repeated key stays an array and fails the schema. */
function displayNameQuery(req: Request): Record<string, unknown> {
  const entry = Object.entries(req.query).find(([key]) => key.toLowerCase() === 'displayname');
  return entry ? { displayName: entry[1] } : {};
}
