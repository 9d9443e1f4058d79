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
 * The one field every digit-only second-factor code is typed into (authenticator, SMS, PIN digits; sign-in and
 * set-up): digits keyboard and the browser's one-time-code autofill. No "spaces and case" hint: these codes have no
 * letters, so case means nothing to them (issue 43); the recovery-code page, whose codes have letters, gives its own.
 */
export function CodeField({ label, value, onChange, errors, autoFocus }: CodeFieldProps) {
  return (
    <TextField
      label={label}
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      errors={errors}
      required
      autoFocus={autoFocus}
    />
  );
}
