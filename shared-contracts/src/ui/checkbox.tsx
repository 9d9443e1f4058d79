import { useId, type InputHTMLAttributes } from 'react';

/** Props of {@link Checkbox}. */
export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> {
  label: string;
  id?: string;
}

/** A checkbox with its label after it (the label is part of the click target). */
export function Checkbox({ label, id, className, ...input }: CheckboxProps) {
  const generated = useId();
  const inputId = id ?? generated;
  return (
    <div className={['hr-checkbox', className].filter(Boolean).join(' ')}>
      <input {...input} type="checkbox" id={inputId} className="hr-checkbox__input" />
      <label htmlFor={inputId} className="hr-checkbox__label">
        {label}
      </label>
    </div>
  );
}
