import { useId, type ReactNode } from 'react';

/** Props of {@link ReasonField}. */
export interface ReasonFieldProps {
  /** The visible label: says whether the reason is required and where it is recorded. */
  label: string;
  value: string;
  onChange: (reason: string) => void;
  /** Translated messages of the field (the page's own check and the server's `reason` errors). */
  errors?: readonly string[];
  /** Guidance under the field, read out with it. */
  hint?: ReactNode;
  /** A reason the change cannot be made without (it goes to the audit, ADR 0061). */
  required?: boolean;
  testId?: string;
}

/**
 * The reason every console change takes (issue 52: each change confirmed with a reason and audited), one field for
 * every dialog: a short text (500 characters, the contracts' limit), its hint and errors tied to it by
 * aria-describedby, marked invalid while it has errors.
 */
export function ReasonField({
  label,
  value,
  onChange,
  errors = [],
  hint,
  required,
  testId,
}: ReasonFieldProps) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', errors.length > 0 ? `${id}-errors` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className="hr-field">
      <label className="hr-field__label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className="hr-field__input admin-reason"
        maxLength={500}
        rows={2}
        required={required}
        aria-invalid={errors.length > 0 || undefined}
        aria-describedby={describedBy || undefined}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testId}
      />
      {hint ? (
        <p id={`${id}-hint`} className="hr-field__hint">
          {hint}
        </p>
      ) : null}
      {errors.length > 0 ? (
        <ul id={`${id}-errors`} className="hr-field__errors">
          {errors.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
