import { useId, useState, type ChangeEventHandler } from 'react';
import type { PasswordRules } from '../password-rules.js';
import { TextField } from '../ui/index.js';
import { ShowPasswordButton, type ShowPasswordStrings } from './password-field.js';
import { PasswordRulesList, PasswordRulesStatus, type PasswordRulesStrings } from './password-rules-list.js';
import { PasswordStrength, type PasswordStrengthStrings } from './strength/password-strength.js';

/** What {@link NewPasswordFields} needs of the live form (see `useLiveForm`). */
export interface NewPasswordForm {
  values: { newPassword: string; confirmPassword: string };
  onChange: (name: 'newPassword' | 'confirmPassword') => ChangeEventHandler<HTMLInputElement>;
  errorsOf: (name: 'newPassword' | 'confirmPassword') => string[];
}

/**
 * Every word of {@link NewPasswordFields}, already translated by the page that shows them: this module carries no
 * strings, so they load with that page (the security centre's namespace, mfe-recovery's), never with the sign-in
 * route.
 */
export interface NewPasswordStrings
  extends ShowPasswordStrings, PasswordRulesStrings, PasswordStrengthStrings {
  /** "New password" */
  newLabel: string;
  /** "Confirm new password" */
  confirmLabel: string;
}

/**
 * The new password and its confirmation, the one form of it every page uses (the expired-password and reset pages,
 * the security centre's change: issue 49). The server's rules are listed under the new password before anything is
 * typed and marked met or not as the user types (SPEC.md §5; the form lists the failing ones under "Password does
 * not meet the requirements." once a submit was tried: `guided` in `useLiveForm`), then the strength meter. One Show
 * button reveals both inputs, so the person can compare what they typed twice.
 */
export function NewPasswordFields({
  form,
  rules,
  strings,
  autoFocus,
  userInputs,
}: {
  form: NewPasswordForm;
  rules: PasswordRules;
  strings: NewPasswordStrings;
  autoFocus?: boolean;
  /** Words the strength meter counts as known (the person's name, user name and e-mail address). */
  userInputs?: readonly string[];
}) {
  const newId = useId();
  const confirmId = useId();
  const [shown, setShown] = useState(false);
  const type = shown ? 'text' : 'password';
  return (
    <>
      <TextField
        id={newId}
        label={strings.newLabel}
        name="newPassword"
        type={type}
        autoComplete="new-password"
        value={form.values.newPassword}
        onChange={form.onChange('newPassword')}
        errors={form.errorsOf('newPassword')}
        hint={<PasswordRulesList password={form.values.newPassword} rules={rules} strings={strings} />}
        action={
          <ShowPasswordButton
            shown={shown}
            onToggle={() => setShown((was) => !was)}
            controls={[newId, confirmId]}
            strings={strings}
          />
        }
        required
        autoFocus={autoFocus}
      />
      <PasswordRulesStatus password={form.values.newPassword} rules={rules} strings={strings} />
      <PasswordStrength password={form.values.newPassword} strings={strings} userInputs={userInputs} />
      <TextField
        id={confirmId}
        label={strings.confirmLabel}
        name="confirmPassword"
        type={type}
        autoComplete="new-password"
        value={form.values.confirmPassword}
        onChange={form.onChange('confirmPassword')}
        errors={form.errorsOf('confirmPassword')}
        required
      />
    </>
  );
}
