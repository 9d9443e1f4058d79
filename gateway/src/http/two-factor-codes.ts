import type { Request, Response } from 'express';
import type { CodeBinding, SendOutcome } from '../identity/two-factor/two-factor.service.js';
import { sha256 } from '../infra/crypto/tokens.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import type { Session } from '../infra/sessions/session-manager.js';
import type { DeviceAccount, KnownDevices } from '../infra/throttle/known-devices.js';
import { browserOf } from './browser.js';
import { sendFormError, sendValidationProblem } from './problem.js';

/**
 * The key a mailed or texted code of a pending sign-in is kept under: this session (whose id changed when the
 * password passed, S24) and this sign-in's start, so a code of another pending sign-in is not found (S18).
 */
export function bindingOf(session: Session): CodeBinding {
  return sha256(`sign-in|${session.id}|${session.record.data.pending?.startedAt ?? ''}`);
}

/** The key of a set-up's codes (phone verification, the PIN that proves the address): this session's wizard. */
export function setupBindingOf(session: Session): CodeBinding {
  return sha256(`setup|${session.id}|${session.record.data.pending?.startedAt ?? 'account'}`);
}

/**
 * This browser's id when `user` completed a sign-in with its second factor here before (the 2FA counters' cookie,
 * issue 39): its mails and texts come from a budget of its own (issue 48, ADR 0043).
 */
export function secondFactorDeviceOf(
  deps: { sessions: RequestSessions; secondFactorDevices?: KnownDevices | undefined },
  req: Request,
  res: Response,
  user: DeviceAccount,
): string | undefined {
  return deps.secondFactorDevices?.recognise(browserOf(deps.sessions, req, res), user);
}

/** Answers a text request: what went out (or the wait), too many (S6), or not deliverable. */
export function sendCodeOutcome(res: Response, outcome: SendOutcome): void {
  if (outcome === 'throttled') {
    res.set('Retry-After', '3600');
    return sendFormError(res, 'tooManyAttempts');
  }
  if (outcome === 'failed') return sendFormError(res, 'codeNotSent');
  res.set('Cache-Control', 'no-store').json(outcome);
}

/** The 400 errors map with `invalidCode` on the field (the code was wrong, expired or used). */
export function sendFieldError(res: Response, field: string): void {
  sendValidationProblem(res, { [field]: ['invalidCode'] });
}

/** Query keys are case-insensitive (`Id`, `id`); a repeated key stays an array and fails the schema. */
export function lowerKeys(query: Request['query']): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).map(([key, value]) => [key.toLowerCase(), value]));
}
