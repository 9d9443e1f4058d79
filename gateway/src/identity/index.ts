// The identity layer's public surface for the HTTP routers and the OIDC mount.
export { createAccountsService, findAccount, type Account, type AccountClaims } from './accounts.service.js';
export {
  createSessionAuthService,
  type SessionAuthService,
  type SignedInAccountInfo,
} from './session-auth.service.js';
export { SignInService, type SignInOutcome } from './sign-in/sign-in.service.js';
export {
  SignInStepRegistry,
  defaultSignInSteps,
  expiredPasswordStep,
  twoFactorStep,
  type SignInStep,
  type StepContext,
} from './sign-in/step-registry.js';
export { ARGON2_OPTIONS, hashPassword, verifyPassword } from './passwords.service.js';
