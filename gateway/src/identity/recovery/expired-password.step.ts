import { defineStep, StepId } from '../sign-in/sign-in-step.js';

/** A day in milliseconds (password ages are counted in days). */
const DAY_MS = 86_400_000;

/**
 * Expired password → the change page; while it is pending only its calls work (S3). A password has expired when
 * its own expiry has passed (`expire-password`, or the age policy when it was set) or when it is older than the
 * partner's maximum age now (a policy set or shortened after the password was chosen applies at once).
 */
export const expiredPasswordStep = defineStep({
  id: StepId.expiredPassword,
  path: '/account/change-expired-password',
  appliesTo: async ({ user, now, facts }) => {
    if (user.passwordExpiresAt !== null && user.passwordExpiresAt <= now) return true;
    if (user.passwordHash === null || user.passwordChangedAt === null) return false;
    const maxAgeDays = (await facts.passwordMaxAgeDays?.(user)) ?? 0;
    return maxAgeDays > 0 && now - user.passwordChangedAt >= maxAgeDays * DAY_MS;
  },
  calls: ['ChangeExpiredPassword', 'PasswordRules'],
});
