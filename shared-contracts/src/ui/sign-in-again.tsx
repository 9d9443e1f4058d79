import { Alert } from './alert.js';
import { Button } from './button.js';
import { Stack } from './layout.js';

/**
 * The codes a change of how one signs in is refused with when the full sign-in is not recent (S21, ADR 0036): one
 * rule and one answer, 403 `recentSignInRequired`; the older 400 `reauthenticationRequired` is still understood.
 */
const RECENT_SIGN_IN_CODES: readonly unknown[] = ['recentSignInRequired', 'reauthenticationRequired'];

/** The form-level codes of an API error, from its errors map or (for a 403) its body's. */
function formCodes(error: unknown): unknown[] {
  if (typeof error !== 'object' || error === null) return [];
  const { errors, body } = error as { errors?: unknown; body?: unknown };
  const bodyErrors =
    typeof body === 'object' && body !== null ? (body as { errors?: unknown }).errors : undefined;
  return [errors, bodyErrors].flatMap((map) => {
    const form = typeof map === 'object' && map !== null ? (map as Record<string, unknown>)[''] : undefined;
    return Array.isArray(form) ? (form as unknown[]) : [];
  });
}

/** Whether a call was refused because the sign-in is not recent enough for it. */
export function needsRecentSignIn(error: unknown): boolean {
  return formCodes(error).some((code) => RECENT_SIGN_IN_CODES.includes(code));
}

/** Props of {@link SignInAgain}. */
export interface SignInAgainProps {
  /** Already translated: why ("For your security, sign in again to make this change."). */
  message: string;
  /** Already translated: the button ("Sign in again"). */
  label: string;
  /** Ends this session and goes to the sign-in page, which comes back where the person was (`SignInAgain`). */
  onSignInAgain: () => void;
  loading?: boolean;
  /** Announce at once (after a refused change) rather than politely (known before anything was tried). */
  urgent?: boolean;
}

/** "Sign in again": the notice every page that changes how one signs in shows when the sign-in is not recent. */
export function SignInAgain({ message, label, onSignInAgain, loading, urgent }: SignInAgainProps) {
  return (
    <div role={urgent ? 'alert' : undefined} data-testid="recent-sign-in">
      <Alert kind="info">
        <Stack>
          <span>{message}</span>
          <Button variant="secondary" loading={loading ?? false} onClick={onSignInAgain}>
            {label}
          </Button>
        </Stack>
      </Alert>
    </div>
  );
}
