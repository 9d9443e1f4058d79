import { Router } from 'express';

/**
 * Recovery and passwords (SPEC.md §7): VerifyCaptcha, Recover, PasswordRules, ChangeExpiredPassword, ResetPassword.
 * Mounted in the account API after the sign-in gate; the area's calls register here as its flow ships, and
 * until then they answer the API's 404.
 */
export function recoveryRouter(): Router {
  return Router();
}
