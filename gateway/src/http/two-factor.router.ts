import { Router } from 'express';

/**
 * Two-factor and codes (SPEC.md §7): the second-factor sign-in, recovery codes, PIN, SMS and the set-up wizard.
 * Mounted in the account API after the sign-in gate; the area's calls register here as its flow ships, and
 * until then they answer the API's 404.
 */
export function twoFactorRouter(): Router {
  return Router();
}
