import type { ChangeEventHandler } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from 'shared-contracts/ui';
import type { PasswordRules } from 'shared-contracts';
import { PasswordRulesList, PasswordRulesStatus } from './password-rules-list';
import { PasswordStrength } from './strength/password-strength';

/** What {@link NewPasswordFields} needs of the live form. */
interface NewPasswordForm {
  values: { newPassword: string; confirmPassword: string };
  onChange: (name: 'newPassword' | 'confirmPassword') => ChangeEventHandler<HTMLInputElement>;
  errorsOf: (name: 'newPassword' | 'confirmPassword') => string[];
}

/**
 * The new password and its confirmation. The server's rules are listed under the new password before anything is
 * typed and marked met or not as the user types (SPEC.md §5; the form lists the failing ones under "Password does
 * not meet the requirements." once a submit was tried: `guided` in `useLiveForm`), then the strength meter.
 */
export function NewPasswordFields({
  form,
  rules,
  autoFocus,
}: {
  form: NewPasswordForm;
  rules: PasswordRules;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation('mfe-recovery');
  return (
    <>
      <TextField
        label={t('password.newLabel')}
        name="newPassword"
        type="password"
        autoComplete="new-password"
        value={form.values.newPassword}
        onChange={form.onChange('newPassword')}
        errors={form.errorsOf('newPassword')}
        hint={<PasswordRulesList password={form.values.newPassword} rules={rules} />}
        required
        autoFocus={autoFocus}
      />
      <PasswordRulesStatus password={form.values.newPassword} rules={rules} />
      <PasswordStrength password={form.values.newPassword} />
      <TextField
        label={t('password.confirmLabel')}
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        value={form.values.confirmPassword}
        onChange={form.onChange('confirmPassword')}
        errors={form.errorsOf('confirmPassword')}
        required
      />
    </>
  );
}
