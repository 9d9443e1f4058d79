import { codeDelivery } from './code-delivery.service.js';
import { recoveryCodeSets } from './recovery-code-sets.service.js';
import { secondFactorCheck } from './second-factor-check.service.js';
import { twoFactorContext, type TwoFactorServiceDeps } from './two-factor-context.js';
import { twoFactorSetup } from './two-factor-setup.service.js';

export * from './two-factor-context.js';

/**
 * The second factor (SPEC.md §7 "Two-factor and codes", ADR 0008): the authenticator app (TOTP), SMS, the mailed
 * PIN and recovery codes, at sign-in and in the set-up wizard. HTTP-free; the routers map outcomes to the protocol.
 * One file per job: the sign-in check (`second-factor-check.service.ts`), the set-up wizard
 * (`two-factor-setup.service.ts`), code delivery (`code-delivery.service.ts`), recovery codes
 * (`recovery-code-sets.service.ts`); what they share is in `two-factor-context.ts`.
 */
export function createTwoFactorService(deps: TwoFactorServiceDeps) {
  const ctx = twoFactorContext(deps);
  const check = secondFactorCheck(ctx);
  const delivery = codeDelivery(ctx);
  const recoveryCodes = recoveryCodeSets(ctx);
  const setup = twoFactorSetup(ctx, { newRecoveryCodeSet: recoveryCodes.newRecoveryCodeSet });
  // Every method named with the part it lives in: no spread, so reading this object says where each one is. The
  // parts are closures over `ctx` whose object-literal methods never read `this`, so handing them on is safe.
  /* eslint-disable @typescript-eslint/unbound-method */
  return {
    methodsOf: ctx.methodsOf,
    recentSignInMs: check.recentSignInMs,
    recentFullSignIn: check.recentFullSignIn,
    user: check.user,
    loginView: check.loginView,
    verifySignInCode: check.verifySignInCode,
    rememberBrowser: check.rememberBrowser,
    sendSignInSms: delivery.sendSignInSms,
    sendPhoneVerification: delivery.sendPhoneVerification,
    generatePin: delivery.generatePin,
    pinReference: delivery.pinReference,
    redeemRecoveryCode: recoveryCodes.redeemRecoveryCode,
    regenerateRecoveryCodes: recoveryCodes.regenerateRecoveryCodes,
    takeRecoveryCodes: recoveryCodes.takeRecoveryCodes,
    recoveryCodesAvailable: recoveryCodes.recoveryCodesAvailable,
    setupView: setup.setupView,
    confirmAuthenticator: setup.confirmAuthenticator,
    confirmSms: setup.confirmSms,
    confirmPin: setup.confirmPin,
  };
  /* eslint-enable @typescript-eslint/unbound-method */
}

/** The second-factor service. */
export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
