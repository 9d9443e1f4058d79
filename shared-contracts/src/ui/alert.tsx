import type { ReactNode } from 'react';

/** Props of {@link Alert}. */
export interface AlertProps {
  /** error and warning are announced at once (role="alert"); info and success politely (role="status"). */
  kind: 'error' | 'warning' | 'info' | 'success';
  children: ReactNode;
  className?: string;
}

/** A message box for form-level errors and notices. */
export function Alert({ kind, children, className }: AlertProps) {
  const urgent = kind === 'error' || kind === 'warning';
  return (
    <div
      role={urgent ? 'alert' : 'status'}
      className={['hr-alert', `hr-alert--${kind}`, className].filter(Boolean).join(' ')}
    >
      {children}
    </div>
  );
}

/** A form's own errors (not tied to one field), one line each, announced at once; nothing when there are none. */
export function FormErrors({ messages }: { messages: readonly string[] }) {
  return messages.length > 0 ? (
    <Alert kind="error">
      {messages.map((message) => (
        <div key={message}>{message}</div>
      ))}
    </Alert>
  ) : null;
}
