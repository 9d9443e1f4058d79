import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

/** Props of {@link TextField}. */
export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  /** The visible label (required: every field is labelled). */
  label: string;
  /** Translated error messages of this field; all are listed. */
  errors?: readonly string[];
  /** Guidance under the field (what to type, e.g. "codes ignore spaces and case"), read out with it. */
  hint?: ReactNode;
  /**
   * A warning about what is being typed (the caps-lock warning), read out with the field and announced when it
   * appears. Give it whenever the field may warn, empty while it does not, so its live region is already there.
   */
  warning?: ReactNode;
  /** Overrides the generated id (tests, label targets from elsewhere). */
  id?: string;
  /** A control at the input's inline end (e.g. the show-password button). */
  action?: ReactNode;
}

/**
 * A labelled input with its error list. The hint, the warning and the errors are tied to the input by
 * aria-describedby and the input is marked aria-invalid, so screen readers announce them with the field. A hint
 * looks like the page's quieter text; only a warning looks like one.
 */
export function TextField({
  label,
  errors = [],
  hint,
  warning,
  id,
  action,
  className,
  ...input
}: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const errorId = `${inputId}-errors`;
  const hintId = `${inputId}-hint`;
  const warningId = `${inputId}-warning`;
  const describedBy = [
    hint ? hintId : undefined,
    warning ? warningId : undefined,
    errors.length > 0 ? errorId : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={['hr-field', className].filter(Boolean).join(' ')}>
      <label className="hr-field__label" htmlFor={inputId}>
        {label}
      </label>
      {action ? (
        <div className="hr-field__row">
          <input
            {...input}
            id={inputId}
            className="hr-field__input"
            aria-invalid={errors.length > 0 || undefined}
            aria-describedby={describedBy || undefined}
          />
          {action}
        </div>
      ) : (
        <input
          {...input}
          id={inputId}
          className="hr-field__input"
          aria-invalid={errors.length > 0 || undefined}
          aria-describedby={describedBy || undefined}
        />
      )}
      {hint ? (
        <div id={hintId} className="hr-field__hint">
          {hint}
        </div>
      ) : null}
      {warning !== undefined ? (
        <div id={warningId} className="hr-field__warning" aria-live="polite">
          {warning}
        </div>
      ) : null}
      {errors.length > 0 ? (
        <ul id={errorId} className="hr-field__errors">
          {errors.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
