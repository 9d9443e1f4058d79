import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import { describedBy, FieldErrorList } from './field-errors';

/** Props of {@link SelectField}. */
export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'onChange'> {
  label: string;
  onChange: (value: string) => void;
  /** Translated errors of the field. */
  errors?: readonly string[];
  /** Guidance under the field, read out with it. */
  hint?: ReactNode;
  testId?: string;
}

/** A labelled choice of a console form, with its hint and errors tied to it (the select beside `TextField`). */
export function SelectField({
  label,
  onChange,
  errors = [],
  hint,
  testId,
  children,
  ...select
}: SelectFieldProps) {
  const id = useId();
  return (
    <div className="hr-field">
      <label className="hr-field__label" htmlFor={id}>
        {label}
      </label>
      <select
        {...select}
        id={id}
        className="hr-field__input"
        aria-invalid={errors.length > 0 || undefined}
        aria-describedby={describedBy(id, !!hint, errors)}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testId}
      >
        {children}
      </select>
      {hint ? (
        <div id={`${id}-hint`} className="hr-field__hint">
          {hint}
        </div>
      ) : null}
      <FieldErrorList id={`${id}-errors`} errors={errors} />
    </div>
  );
}
