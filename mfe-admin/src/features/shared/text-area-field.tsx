import { useId, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { describedBy, FieldErrorList } from './field-errors';

/** Props of {@link TextAreaField}. */
export interface TextAreaFieldProps extends Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  'id' | 'onChange' | 'value'
> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Translated errors of the field. */
  errors?: readonly string[];
  /** Guidance under the field, read out with it. */
  hint?: ReactNode;
  testId?: string;
}

/** A labelled text of several lines (a reason, a list of addresses), with its hint and errors tied to it. */
export function TextAreaField({
  label,
  value,
  onChange,
  errors = [],
  hint,
  testId,
  className,
  ...area
}: TextAreaFieldProps) {
  const id = useId();
  return (
    <div className="hr-field">
      <label className="hr-field__label" htmlFor={id}>
        {label}
      </label>
      <textarea
        rows={2}
        {...area}
        id={id}
        className={['hr-field__input', className].filter(Boolean).join(' ')}
        aria-invalid={errors.length > 0 || undefined}
        aria-describedby={describedBy(id, !!hint, errors)}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testId}
      />
      {hint ? (
        <p id={`${id}-hint`} className="hr-field__hint">
          {hint}
        </p>
      ) : null}
      <FieldErrorList id={`${id}-errors`} errors={errors} />
    </div>
  );
}
