import { z } from 'zod/mini';
import { validateNewPassword, type PasswordRules } from './password-rules.js';

// Longer than anything a person types or a rule set accepts (passwordRulesSchema caps maxLength at 1024): refused
// before any work, so a megabyte "password" never reaches the hash. The rules' own maximum speaks first.
const MAX_TYPED_PASSWORD = 4096;
/** A reset token as mailed: base64url of 32 random bytes (43 characters); anything far longer is not one. */
const MAX_TOKEN = 256;

/** Body of `Recover` (SPEC.md §7): the username or e-mail address of the account to recover. */
export const recoverRequestSchema = z.object({
  username: z
    .string('required')
    .check(z.trim(), z.minLength(1, 'required'), z.maxLength(256, 'invalidValue')),
  returnUrl: z.optional(z.string().check(z.maxLength(2048))),
});
/** Body of `Recover`. */
export type RecoverRequest = z.input<typeof recoverRequestSchema>;

/**
 * Answer of `Recover`: always the same, whether an account matched or not (S10), so the page can only say "if an
 * account matches, a mail is on its way".
 */
export const recoverResultSchema = z.object({ accepted: z.literal(true) });
/** Answer of `Recover`. */
export type RecoverResult = z.infer<typeof recoverResultSchema>;

/**
 * Body of `PasswordRules`. With the reset page's `token` the rules are those of the token's account, and a dead
 * token answers the 209 to `/error/link-expired` at once, before the user types anything.
 */
export const passwordRulesRequestSchema = z.object({
  token: z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_TOKEN))),
});

const typedPassword = z.string('required').check(z.maxLength(MAX_TYPED_PASSWORD, 'invalidValue'));

function addNewPasswordIssues(
  value: { newPassword: string; confirmPassword: string },
  rules: PasswordRules,
  ctx: z.core.$RefinementCtx,
): void {
  const errors = validateNewPassword(value.newPassword, value.confirmPassword, rules);
  for (const message of errors.newPassword) ctx.addIssue({ code: 'custom', message, path: ['newPassword'] });
  for (const message of errors.confirmPassword)
    ctx.addIssue({ code: 'custom', message, path: ['confirmPassword'] });
}

/** Body of `ResetPassword` under the given rules: the mailed token and the new password twice (every rule runs). */
export function resetPasswordRequestSchema(rules: PasswordRules) {
  return z
    .object({
      token: z.string('required').check(z.minLength(1, 'required'), z.maxLength(MAX_TOKEN, 'invalidValue')),
      newPassword: typedPassword,
      confirmPassword: typedPassword,
    })
    .check(z.superRefine((value, ctx) => addNewPasswordIssues(value, rules, ctx)));
}
/** Body of `ResetPassword`. */
export interface ResetPasswordRequest {
  token: string;
  newPassword: string;
  confirmPassword: string;
}

/** Answer of `ResetPassword`: done; the user signs in with the new password (a reset never signs in: S14). */
export const resetPasswordResultSchema = z.object({ passwordReset: z.literal(true) });
/** Answer of `ResetPassword`. */
export type ResetPasswordResult = z.infer<typeof resetPasswordResultSchema>;

/** How `ChangeExpiredPassword` treats the current password (ADR 0039). */
export interface ChangeExpiredPasswordOptions {
  /**
   * `required` (the default): the current password must be typed and differ from the new one. `verified`: the
   * pending sign-in itself verified the password moments ago, so the field may be left out or empty; when it is
   * given it is still checked. The server decides which applies; the page follows the server's answer.
   */
  currentPassword?: 'required' | 'verified';
}

/**
 * Body of `ChangeExpiredPassword` under the given rules: current (unless the pending sign-in verified it: ADR 0039),
 * new and confirmation; the new one may not be the current one. Every rule runs (SPEC.md §5).
 */
export function changeExpiredPasswordRequestSchema(
  rules: PasswordRules,
  options: ChangeExpiredPasswordOptions = {},
) {
  const verified = options.currentPassword === 'verified';
  return z
    .object({
      // Left out reads as empty: required unless verified, as before for the security centre's own change.
      currentPassword: z._default(
        z.string('currentPasswordRequired').check(z.maxLength(MAX_TYPED_PASSWORD, 'invalidValue')),
        '',
      ),
      newPassword: typedPassword,
      confirmPassword: typedPassword,
      returnUrl: z.optional(z.string().check(z.maxLength(2048))),
    })
    .check(
      z.superRefine((value, ctx) => {
        const current = value.currentPassword;
        if (current.length === 0 && !verified)
          ctx.addIssue({ code: 'custom', message: 'currentPasswordRequired', path: ['currentPassword'] });
        addNewPasswordIssues(value, rules, ctx);
        if (value.newPassword.length > 0 && value.newPassword === current)
          ctx.addIssue({ code: 'custom', message: 'passwordMustDiffer', path: ['newPassword'] });
      }),
    );
}
/** Body of `ChangeExpiredPassword` (`currentPassword` left out when the pending sign-in verified it: ADR 0039). */
export interface ChangeExpiredPasswordRequest {
  currentPassword?: string;
  newPassword: string;
  confirmPassword: string;
  returnUrl?: string;
}
