import type { ButtonHTMLAttributes, ReactNode } from 'react';

/** Props of {@link Button}. */
export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /**
   * Primary is the one main action of a form; secondary and link are the rest. Danger (styled by
   * `shared-contracts/account-ui/account-ui.css`) is a destructive action's confirmation.
   */
  variant?: 'primary' | 'secondary' | 'link' | 'danger';
  /**
   * While true the button announces it is busy and ignores presses (SPEC.md §4 per-action loading flag). It stays
   * focusable (aria-disabled, not disabled), so focus is not lost to the page while the request runs.
   */
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
  onClick,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      type={type ?? 'button'}
      className={['hr-button', `hr-button--${variant}`, className].filter(Boolean).join(' ')}
      disabled={disabled === true}
      aria-disabled={loading || undefined}
      aria-busy={loading || undefined}
      onClick={(event) => {
        // A press while busy does nothing; this also stops a form's implicit submission (Enter in a field),
        // which the browser performs as a click on the submit button.
        if (loading) event.preventDefault();
        else onClick?.(event);
      }}
    >
      {children}
    </button>
  );
}
