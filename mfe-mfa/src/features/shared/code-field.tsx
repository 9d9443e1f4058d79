import { TextField } from 'shared-contracts/ui';

/** Props of {@link CodeField}. */
export interface CodeFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  errors: readonly string[];
  autoFocus?: boolean;
  /** Guidance under the label (the sign-in's "spaces and case don't matter", SPEC.md §2). */
  hint?: string;
}

/**
 * The one field every digit-only second-factor code is typed into (authenticator, SMS, PIN digits; sign-in and
 * set-up): digits keyboard and the browser's one-time-code autofill. The sign-in's two-step page passes SPEC.md §2's
 * hint "codes ignore spaces and case" (issue 49): the gateway reads every code through `normaliseCode`, which drops
 * spaces and dashes and reads letters in any case.
 */
export function CodeField({ label, value, onChange, errors, autoFocus, hint }: CodeFieldProps) {
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
      hint={hint}
    />
  );
}
