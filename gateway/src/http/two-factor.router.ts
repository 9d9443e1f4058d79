import type { Router } from 'express';
import { twoFactorSetupStep } from '../identity/two-factor/two-factor-setup.step.js';
import { twoFactorStep } from '../identity/two-factor/two-factor.step.js';
import { stepRouter } from './step-router.js';
import { pinRoutes, twoFactorSetupRoutes } from './two-factor-setup.routes.js';
import type { TwoFactorRouterDeps } from './two-factor-router-deps.js';
import { twoFactorSignInRoutes } from './two-factor-sign-in.routes.js';

/**
 * Two-factor and codes (SPEC.md §7): the router of the 2FA step and the set-up step, built from their declarations
 * (`identity/two-factor/two-factor.step.ts`, `two-factor-setup.step.ts`). Who may call each is its row in
 * `ACCOUNT_CALL_ACCESS` (the 2FA step's pending sign-in; the set-up step's, or a signed-in account whose full sign-in
 * is recent: S21). The SMS resend (`SendOTP`) is served by the one-time-token router's one route.
 */
export function twoFactorRouter(deps: TwoFactorRouterDeps): Router {
  return stepRouter([twoFactorStep, twoFactorSetupStep], {
    ...twoFactorSignInRoutes(deps),
    ...pinRoutes(deps),
    ...twoFactorSetupRoutes(deps),
  });
}
