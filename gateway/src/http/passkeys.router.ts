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
import type { ReturnUrls } from '../identity/applications/return-urls.service.js';
import type { SignInService } from '../identity/sign-in/sign-in.service.js';
import { passkeyOfferStep } from '../identity/passkeys/passkey-offer.step.js';
import type { WebauthnService } from '../identity/passkeys/webauthn.service.js';
import { sessionAmr } from '../identity/account/ways-in.js';
import type { SourceLimit } from '../infra/throttle/source-limit.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import { handle, parse, view } from './plumbing.js';
import { sendFormError } from './problem.js';
import { sendTooManyAttempts } from './throttled.js';
import type { SignInResponses } from './sign-in-responses.js';
import { callerOf, type AccountCaller, type PendingCaller } from './account-access.js';
import { stepRouter } from './step-router.js';
import { browserOf } from './browser.js';

/** Dependencies of {@link secureSignInRouter}. */
export interface SecureSignInRouterDeps {
  sessions: RequestSessions;
  signIn: SignInService;
  webauthn: WebauthnService;
  /** Per-source cap on AssertionOptions: each stores a challenge for whoever asks. */
  assertionLimit: SourceLimit;
  returnUrls: ReturnUrls;
  responses: SignInResponses;
}

/** Who registers a device: the passkey-offer step of a pending sign-in, or a recently signed-in account (S21). */
type Registrant = PendingCaller | AccountCaller;

/**
 * Secure sign-in (SPEC.md §7, §4, ADR 0016): AssertionOptions and SecureLogin for anyone (a passkey sign-in starts
 * over like Login), CredentialOptions, RegisterCredential and SkipFido for the passkey-offer step of a pending
 * sign-in or a signed-in account whose full sign-in is recent (S21). Failures are quiet to the browser (one code,
 * no reason); the reason goes to the log.
 */
export function secureSignInRouter(deps: SecureSignInRouterDeps): Router {
  const { sessions, signIn, webauthn, responses } = deps;
  const router = Router();

  router.post(
    '/AssertionOptions',
    handle(async (req, res) => {
      const limit = await deps.assertionLimit.take(req.ip ?? 'unknown');
      if (!limit.allowed) {
        if ('unavailable' in limit) return sendFormError(res, 'serviceUnavailable', 503);
        return sendTooManyAttempts(res, { seconds: limit.retryAfterSeconds }, 400);
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

  /** Where a registrant goes next: the rest of the sign-in, or the returnUrl of a signed-in account. */
  async function carryOn(req: Request, res: Response, actor: Registrant): Promise<void> {
    if (actor.kind === 'pending') {
      return responses.sendOutcome(
        res,
        await signIn.completeStep(browserOf(sessions, req, res), actor.session, passkeyOfferStep.id),
      );
    }
    responses.redirect(res, await deps.returnUrls.safe(returnUrlOf(req.query)), actor.session);
  }

  // The passkey-offer step's calls: its router is built from the step's declaration.
  router.use(
    stepRouter([passkeyOfferStep], {
      CredentialOptions: {
        method: 'post',
        async serve(req, res, actor) {
          const query = parse(credentialOptionsQuerySchema, displayNameQuery(req), res);
          if (!query) return;
          const options = await webauthn.registrationOptions(actor.user, query.displayName, actor.session.id);
          res.set('Cache-Control', 'no-store').json(options);
        },
      },
      RegisterCredential: {
        method: 'post',
        async serve(req, res, actor) {
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
        async serve(req, res, actor) {
          const body = parse(skipFidoRequestSchema, req.body, res);
          if (!body) return;
          if (body.remember) await webauthn.skipOffer(actor.user.id);
          await carryOn(req, res, actor);
        },
      },
    }),
  );

  // Managing passkeys: who may is the calls' rows in ACCOUNT_CALL_ACCESS (the owner, recently for changes).
  view(router, '/Devices', async (req, res) => {
    const { user } = callerOf(res, 'Devices');
    res.set('Cache-Control', 'no-store').json({ devices: await webauthn.devicesOf(user.id) });
  });

  router.post(
    '/RenameDevice',
    handle(async (req, res) => {
      const { user } = callerOf(res, 'RenameDevice');
      const body = parse(renameDeviceRequestSchema, req.body, res);
      if (!body) return;
      // The security centre's RenamePasskey runs the same method: audited and mailed (issue 50).
      if (!(await webauthn.renamePasskey(user, body.id, body.name)))
        return sendFormError(res, 'notFound', 404);
      res.set('Cache-Control', 'no-store').json({ devices: await webauthn.devicesOf(user.id) });
    }),
  );

  router.post(
    '/RemoveDevice',
    handle(async (req, res) => {
      const { user } = callerOf(res, 'RemoveDevice');
      const body = parse(removeDeviceRequestSchema, req.body, res);
      if (!body) return;
      if (!(await webauthn.deletePasskey(user, body.id))) return sendFormError(res, 'notFound', 404);
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
