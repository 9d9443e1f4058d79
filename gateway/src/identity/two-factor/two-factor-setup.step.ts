import { defineStep, StepId } from '../sign-in/sign-in-step.js';

/** 2FA required (by an administrator) but none set up yet → the set-up wizard before the sign-in finishes. */
export const twoFactorSetupStep = defineStep({
  id: StepId.twoFactorSetup,
  path: '/account/setup-twofactor',
  appliesTo: async ({ user, facts }) =>
    (user.requiresTwoFactor || ((await facts.partnerRequiresTwoFactor?.(user)) ?? false)) &&
    !(await facts.hasSecondFactor(user.id)),
  calls: [
    'Setup2FAView',
    'Validate2faSetupCode',
    'GeneratePhoneVerification',
    'GeneratePin',
    'PinReference',
    'EnableTwoFactor',
    'RedeemRecoveryCode',
    'RedeemState',
  ],
});
