import type { Router } from 'express';
import { twoFactorSetupStep } from '../identity/mfa/two-factor-setup.step.js';
import { twoFactorStep } from '../identity/mfa/two-factor.step.js';
import type { TwoFactorService } from '../identity/mfa/two-factor.service.js';
import type { ReturnUrls } from '../identity/return-urls.service.js';
import type { SessionAuthService } from '../identity/session-auth.service.js';
import type { SignInService } from '../identity/sign-in/sign-in.service.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import type { KnownBrowsers } from '../infra/throttle/known-browsers.js';
import type { SignInResponses } from './sign-in-responses.js';
import { stepOrRecentAccount } from './step-or-account.js';
import { stepRouter } from './step-router.js';
import { pinRoutes, twoFactorSetupRoutes } from './two-factor-setup.routes.js';
import { twoFactorSignInRoutes } from './two-factor-sign-in.routes.js';

/** Dependencies of {@link twoFactorRouter}. */
export interface TwoFactorRouterDeps {
  sessions: RequestSessions;
  signIn: SignInService;
  auth: SessionAuthService;
  twoFactor: TwoFactorService;
  returnUrls: ReturnUrls;
  responses: SignInResponses;
  /** Browsers where the account completed a sign-in with its second factor: their own counter (issue 39). */
  secondFactorBrowsers?: KnownBrowsers | undefined;
}

/**
 * Two-factor and codes (SPEC.md §7): the router of the 2FA step and the set-up step, built from their declarations
 * (`identity/mfa/two-factor.step.ts`, `two-factor-setup.step.ts`). The sign-in calls answer only while a pending
 * sign-in waits at the 2FA step; the wizard's calls answer that step's pending sign-in or a signed-in account whose
 * full sign-in is recent (S21). The SMS resend (`SendOTP`) is served by the one-time-token router's one route.
 */
export function twoFactorRouter(deps: TwoFactorRouterDeps): Router {
  const setupActor = stepOrRecentAccount(deps, twoFactorSetupStep.id);
  return stepRouter(deps.responses, [twoFactorStep, twoFactorSetupStep], {
    ...twoFactorSignInRoutes(deps),
    ...pinRoutes(deps, setupActor),
    ...twoFactorSetupRoutes(deps, setupActor),
  });
}
