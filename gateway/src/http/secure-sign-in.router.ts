import { Router } from 'express';

/**
 * Secure sign-in (SPEC.md §7): AssertionOptions, CredentialOptions, RegisterCredential, SecureLogin.
 * Mounted in the account API after the sign-in gate; the area's calls register here as its flow ships, and
 * until then they answer the API's 404.
 */
export function secureSignInRouter(): Router {
  return Router();
}
