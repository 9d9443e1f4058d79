import { z } from 'zod/mini';
import { formatErrorCode } from './error-codes.js';

/** Bounds of the numeric rules, [least, most] (the schema below and the admin CLI's checks read them). */
export const PASSWORD_RULE_BOUNDS = {
  minLength: [8, 256],
  maxLength: [64, 1024],
  maxConsecutive: [0, 64],
} as const satisfies Record<string, readonly [number, number]>;

function ruleNumber(rule: keyof typeof PASSWORD_RULE_BOUNDS) {
  const [least, most] = PASSWORD_RULE_BOUNDS[rule];
  return z.number().check(z.int(), z.minimum(least), z.maximum(most));
}

/**
 * The password rule set (SPEC.md §3 "Password rule set", §5): served by `PasswordRules` with the partner's numbers,
 * applied by the UI as the user types and by the server again with {@link validatePassword} — one code for both.
 *
 * Defaults follow NIST SP 800-63B §5.1.1.2 and SECURITY-CHECKLIST S1: at least 8 characters, long passwords and
 * passphrases accepted (256 by default, never fewer than 64), any Unicode including spaces, never truncated, and no
 * composition rules. Partners may raise the minimum and switch the composition rules on, because SPEC.md §5 lists
 * their messages.
 */
export const passwordRulesSchema = z.object({
  /** Fewest characters (Unicode code points); never below 8 (S1). */
  minLength: ruleNumber('minLength'),
  /** Most characters accepted; never below 64 (S1). Longer is refused with a message, never cut. */
  maxLength: ruleNumber('maxLength'),
  /** Upper case, lower case, digit and special character all required (off by default: NIST advises against). */
  requireCharacterClasses: z.boolean(),
  /** Most identical characters in a row (`aaa` is 3); 0 = no limit. */
  maxConsecutive: ruleNumber('maxConsecutive'),
  /** Characters the partner refuses (each character of the string); empty by default. */
  invalidCharacters: z.string().check(z.maxLength(256)),
});
/** The password rule set. */
export type PasswordRules = z.infer<typeof passwordRulesSchema>;

/** The rules when the partner sets none (NIST 800-63B; S1). */
export const DEFAULT_PASSWORD_RULES: PasswordRules = Object.freeze({
  minLength: 8,
  maxLength: 256,
  requireCharacterClasses: false,
  maxConsecutive: 0,
  invalidCharacters: '',
});

/** A partner's stored overrides merged over the defaults, then clamped to the S1 floor (≥ 8, ≥ 64 accepted). */
export function resolvePasswordRules(overrides: Partial<PasswordRules> | undefined): PasswordRules {
  const merged = { ...DEFAULT_PASSWORD_RULES, ...(overrides ?? {}) };
  const parsed = passwordRulesSchema.safeParse(merged);
  if (parsed.success) return parsed.data;
  // A stored value out of range (hand-edited row) must not weaken the floor nor break the page: defaults for it.
  const fixed: Record<string, unknown> = { ...merged };
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as keyof PasswordRules;
    fixed[key] = DEFAULT_PASSWORD_RULES[key];
  }
  return passwordRulesSchema.parse(fixed);
}

/** Code points, not UTF-16 units: an emoji or a CJK character is one character to the user (S1 "any Unicode"). */
export function passwordLength(password: string): number {
  let n = 0;
  for (const _ of password) n += 1;
  return n;
}

function longestRun(password: string): number {
  let longest = 0;
  let run = 0;
  let previous: string | undefined;
  for (const ch of password) {
    run = ch === previous ? run + 1 : 1;
    previous = ch;
    if (run > longest) longest = run;
  }
  return longest;
}

/**
 * Checks a new password against the rules and answers every failing rule (SPEC.md §5: all rules run), as error
 * codes with their values (`passwordTooShort|{"n":8}`), in a fixed order. Empty → `newPasswordRequired` only.
 * Nothing is trimmed or normalised: spaces count and the password is checked exactly as it will be hashed (S1).
 */
export function validatePassword(password: string, rules: PasswordRules): string[] {
  if (password.length === 0) return ['newPasswordRequired'];
  const messages: string[] = [];
  const length = passwordLength(password);
  if (length < rules.minLength) messages.push(formatErrorCode('passwordTooShort', { n: rules.minLength }));
  if (length > rules.maxLength) messages.push(formatErrorCode('passwordTooLong', { n: rules.maxLength }));
  if (rules.requireCharacterClasses) {
    const upper = /\p{Lu}/u.test(password);
    const lower = /\p{Ll}/u.test(password);
    const digit = /\p{Nd}/u.test(password);
    const special = /[^\p{L}\p{Nd}]/u.test(password);
    if (!(upper && lower && digit && special)) messages.push('passwordCharacterClasses');
  }
  if (rules.maxConsecutive > 0 && longestRun(password) > rules.maxConsecutive)
    messages.push(formatErrorCode('passwordConsecutive', { n: rules.maxConsecutive }));
  if (rules.invalidCharacters !== '') {
    const refused = new Set(rules.invalidCharacters);
    for (const ch of password) {
      if (refused.has(ch)) {
        messages.push('passwordInvalidCharacters');
        break;
      }
    }
  }
  return messages;
}

/** A new password typed twice: the field errors of both fields, every rule run (SPEC.md §5). */
export interface NewPasswordErrors {
  newPassword: string[];
  confirmPassword: string[];
}

/** {@link validatePassword} plus the confirmation ("Passwords must match."). */
export function validateNewPassword(
  newPassword: string,
  confirmPassword: string,
  rules: PasswordRules,
): NewPasswordErrors {
  const confirm: string[] = [];
  if (confirmPassword.length === 0) confirm.push('required');
  else if (confirmPassword !== newPassword) confirm.push('passwordsMustMatch');
  return { newPassword: validatePassword(newPassword, rules), confirmPassword: confirm };
}
