import { useTranslation } from 'react-i18next';
import { TextField } from 'shared-contracts/ui';

/** Props of {@link CodeField}. */
export interface CodeFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  errors: readonly string[];
  autoFocus?: boolean;
}

/**
 * The one field every second-factor code is typed into (authenticator, SMS, PIN digits; sign-in and set-up): digits
 * keyboard, the browser's one-time-code autofill, and the hint that spaces and case do not matter.
 */
export function CodeField({ label, value, onChange, errors, autoFocus }: CodeFieldProps) {
  const { t } = useTranslation('mfe-mfa');
  return (
    <TextField
      label={label}
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      errors={errors}
      hint={t('login2fa.hint')}
      required
      autoFocus={autoFocus}
    />
  );
}
