import type { ButtonHTMLAttributes, ReactNode } from 'react';

/** Props of {@link Button}. */
export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** Primary is the one main action of a form; secondary and link are the rest. */
  variant?: 'primary' | 'secondary' | 'link';
  /** While true the button is disabled and announces it is busy (SPEC.md §4 per-action loading flag). */
  loading?: boolean;
  children: ReactNode;
}

/** The kit's button. `type` defaults to "button" so only an explicit submit submits a form. */
export function Button({
  variant = 'primary',
  loading = false,
  className,
  type,
  disabled,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      type={type ?? 'button'}
      className={['hr-button', `hr-button--${variant}`, className].filter(Boolean).join(' ')}
      disabled={disabled === true || loading}
      aria-busy={loading || undefined}
    >
      {children}
    </button>
  );
}
