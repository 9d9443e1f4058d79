/**
 * A toast as the shell asks for it, whatever the screen it ends up on: the floating one of `toast-outlet.ts` or the
 * line at the end of the page of `inline-toast-store.ts` (a module of its own so those two do not import each other).
 */
export interface ShellToast {
  kind: 'info' | 'success' | 'error' | 'plain';
  /** Already translated text. */
  message: string;
  /** A toast with the id of one still shown replaces it instead of stacking a second one. */
  id?: string;
  /** Milliseconds; `Infinity` keeps it until its action is used. Defaults to `TOAST_DURATION_MS` (shared-contracts). */
  duration?: number;
  action?: { label: string; onClick: () => void };
}
