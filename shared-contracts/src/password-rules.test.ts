import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PASSWORD_RULES,
  resolvePasswordRules,
  validateNewPassword,
  validatePassword,
  type PasswordRules,
} from './password-rules.js';
import { changeExpiredPasswordRequestSchema, resetPasswordRequestSchema } from './recovery.schema.js';

const strict: PasswordRules = {
  minLength: 12,
  maxLength: 64,
  requireCharacterClasses: true,
  maxConsecutive: 2,
  invalidCharacters: '<>',
};

describe('password rules (SPEC.md §5, S1)', () => {
  it.each([
    ['', DEFAULT_PASSWORD_RULES, ['newPasswordRequired']],
    ['short', DEFAULT_PASSWORD_RULES, ['passwordTooShort|{"n":8}']],
    ['eight ch', DEFAULT_PASSWORD_RULES, []],
    // S1: any Unicode and spaces; length in characters the user sees (code points), not UTF-16 units.
    ['пароль мой', DEFAULT_PASSWORD_RULES, []],
    ['🔑🔑🔑🔑🔑🔑🔑', DEFAULT_PASSWORD_RULES, ['passwordTooShort|{"n":8}']],
    ['🔑🔑🔑🔑🔑🔑🔑🔑', DEFAULT_PASSWORD_RULES, []],
    ['x'.repeat(256), DEFAULT_PASSWORD_RULES, []],
    ['x'.repeat(257), DEFAULT_PASSWORD_RULES, ['passwordTooLong|{"n":256}']],
    // Composition rules are off by default: all lower case is fine.
    ['alllowercaseletters', DEFAULT_PASSWORD_RULES, []],
    // All rules run: every failing rule is reported at once.
    [
      'aaa<',
      strict,
      [
        'passwordTooShort|{"n":12}',
        'passwordCharacterClasses',
        'passwordConsecutive|{"n":2}',
        'passwordInvalidCharacters',
      ],
    ],
    ['Abcdefgh1!xy', strict, []],
    ['Äbcdefgh1 xy', strict, []],
    ['Abcdefgh1!' + 'xy'.repeat(30), strict, ['passwordTooLong|{"n":64}']],
  ])('S1 case %#: %j', (password, rules, expected) => {
    expect(validatePassword(password, rules)).toEqual(expected);
  });

  it('S1 a 64-character passphrase with spaces is accepted by default and never shortened', () => {
    const phrase = 'correct horse battery staple '.repeat(3).slice(0, 64);
    expect(validatePassword(phrase, DEFAULT_PASSWORD_RULES)).toEqual([]);
  });

  it('the confirmation must match', () => {
    expect(
      validateNewPassword('good password', 'good passwore', DEFAULT_PASSWORD_RULES).confirmPassword,
    ).toEqual(['passwordsMustMatch']);
    expect(validateNewPassword('good password', '', DEFAULT_PASSWORD_RULES).confirmPassword).toEqual([
      'required',
    ]);
  });

  it('S1 partner overrides never lower the floor', () => {
    expect(resolvePasswordRules({ minLength: 4, maxLength: 20 })).toEqual(DEFAULT_PASSWORD_RULES);
    expect(resolvePasswordRules({ minLength: 10, requireCharacterClasses: true })).toMatchObject({
      minLength: 10,
      requireCharacterClasses: true,
    });
  });

  it('the request schemas run every rule and keep the field keys', () => {
    const reset = resetPasswordRequestSchema(strict).safeParse({
      token: 't',
      newPassword: 'aaa',
      confirmPassword: 'b',
    });
    expect(reset.success).toBe(false);
    const messagesOf = (field: string) =>
      (reset.error?.issues ?? []).filter((i) => i.path[0] === field).map((i) => i.message);
    expect(messagesOf('newPassword')).toHaveLength(3);
    expect(messagesOf('confirmPassword')).toEqual(['passwordsMustMatch']);
    const change = changeExpiredPasswordRequestSchema(DEFAULT_PASSWORD_RULES).safeParse({
      currentPassword: 'same password',
      newPassword: 'same password',
      confirmPassword: 'same password',
    });
    expect(change.error?.issues.map((i) => i.message)).toEqual(['passwordMustDiffer']);
  });
});
