import { defineStep, StepId } from '../sign-in/sign-in-step.js';

/**
 * A confirmed second factor → the 2FA page (and its recovery-code page); only the 2FA calls work (S20). Its SMS
 * resend (`SendOTP` without a username) is an outside call, answered by the one-time-token route (ADR 0019).
 */
export const twoFactorStep = defineStep({
  id: StepId.twoFactor,
  path: '/account/login/twofactor',
  // Not again right after the set-up wizard: its confirmation code already proved the new factor.
  appliesTo: async ({ user, pending, facts }) =>
    !pending.passed.includes(StepId.twoFactorSetup) &&
    pending.secondFactorRemembered !== true &&
    (await facts.hasSecondFactor(user.id)),
  calls: [
    'LoginWith2FAView',
    'LoginWith2FA',
    'LoginWithRecoveryCodeView',
    'LoginWithRecoveryCode',
    'PinReference',
    'GeneratePin',
  ],
});
