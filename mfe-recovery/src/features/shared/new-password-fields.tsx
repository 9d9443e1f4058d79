import type { ChangeEventHandler } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from 'shared-contracts/ui';
import { PasswordStrength } from './strength/password-strength';

/** What {@link NewPasswordFields} needs of the live form. */
interface NewPasswordForm {
  values: { newPassword: string; confirmPassword: string };
  onChange: (name: 'newPassword' | 'confirmPassword') => ChangeEventHandler<HTMLInputElement>;
  errorsOf: (name: 'newPassword' | 'confirmPassword') => string[];
}

/**
 * The new password and its confirmation, with every rule's message live as the user types (SPEC.md §5), and the
 * strength meter under the new password.
 */
export function NewPasswordFields({ form, autoFocus }: { form: NewPasswordForm; autoFocus?: boolean }) {
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
        required
        autoFocus={autoFocus}
      />
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
