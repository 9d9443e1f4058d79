import type { Router } from 'express';
import { twoFactorSetupStep } from '../identity/two-factor/two-factor-setup.step.js';
import { twoFactorStep } from '../identity/two-factor/two-factor.step.js';
import { stepOrRecentAccount } from './step-or-account.js';
import { stepRouter } from './step-router.js';
import { pinRoutes, twoFactorSetupRoutes } from './two-factor-setup.routes.js';
import type { TwoFactorRouterDeps } from './two-factor-router-deps.js';
import { twoFactorSignInRoutes } from './two-factor-sign-in.routes.js';

/**
 * Two-factor and codes (SPEC.md §7): the router of the 2FA step and the set-up step, built from their declarations
 * (`identity/two-factor/two-factor.step.ts`, `two-factor-setup.step.ts`). The sign-in calls answer only while a pending
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
