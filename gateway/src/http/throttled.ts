import type { Response } from 'express';
import { setRetryAfter, type Wait } from '../infra/throttle/wait.js';
import { sendFormError } from './problem.js';

/**
 * The answer of every throttled call: the errors map `{"": ["tooManyAttempts"]}` with `Retry-After`. The sign-in,
 * recovery and passkey calls answer it as 400 (SPEC.md §4, ADR 0004, 0016), the security centre and "Confirm it's
 * you" as 429 (ADR 0036, 0043, 0045). Without a known wait the header is left out rather than guessed.
 */
export function sendTooManyAttempts(res: Response, wait: Wait | undefined, status: 400 | 429): void {
  if (wait) setRetryAfter(res, wait);
  sendFormError(res, 'tooManyAttempts', status);
}
