import { formatErrorCode, parseErrorCode } from '../error-codes.js';
import { validatePassword, type PasswordRules } from '../password-rules.js';

/** The error codes of the password rules themselves (SPEC.md §5), as opposed to "required" or the list's refusal. */
const RULE_CODES: ReadonlySet<string> = new Set([
  'passwordTooShort',
  'passwordTooLong',
  'passwordCharacterClasses',
  'passwordConsecutive',
  'passwordInvalidCharacters',
]);

/** True when a message (`code` or `code|{values}`) is one of the password rules' failures. */
export function isPasswordRuleCode(message: string): boolean {
  const parsed = parseErrorCode(message);
  return 'code' in parsed && RULE_CODES.has(parsed.code);
}

/** One rule of the set as the checklist shows it: its message (code with values) and whether it is met. */
export interface PasswordRuleCheck {
  message: string;
  met: boolean;
}

/**
 * The rules the server's rule set switches on, in the order `validatePassword` checks them, each with the message
 * it fails with (so the checklist and the errors say the same words) and whether `password` meets it. Nothing typed
 * meets nothing yet.
 */
export function checkPasswordRules(password: string, rules: PasswordRules): PasswordRuleCheck[] {
  const messages = [
    formatErrorCode('passwordTooShort', { n: rules.minLength }),
    formatErrorCode('passwordTooLong', { n: rules.maxLength }),
  ];
  if (rules.requireCharacterClasses) messages.push('passwordCharacterClasses');
  if (rules.maxConsecutive > 0)
    messages.push(formatErrorCode('passwordConsecutive', { n: rules.maxConsecutive }));
  if (rules.invalidCharacters !== '') messages.push('passwordInvalidCharacters');
  const failing = new Set(validatePassword(password, rules));
  return messages.map((message) => ({ message, met: password !== '' && !failing.has(message) }));
}
