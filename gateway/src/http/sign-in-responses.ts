import type { Request, RequestHandler, Response } from 'express';
import { REDIRECT_STATUS } from 'shared-contracts';
import type { SignInOutcome, SignInService } from '../identity/sign-in/sign-in.service.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import type { Session } from '../infra/sessions/session-manager.js';
import type { Antiforgery } from './antiforgery.js';
import { callName } from './plumbing.js';
import { sendFormError, sendSessionTimedOut } from './problem.js';
import { sendTooManyAttempts } from './throttled.js';

/** Dependencies of {@link createSignInResponses}. */
export interface SignInResponseDeps {
  sessions: RequestSessions;
  antiforgery: Antiforgery;
  signIn: SignInService;
}

/** The response protocol of the sign-in calls (SPEC.md §4), shared by every area's router. */
export interface SignInResponses {
  /** Answers a 209 step change with a state bound to the (possibly new) session. */
  redirect(res: Response, target: string, session: Session): void;
  /** The protocol's empty 400 ("Your session had timed out"), with a fresh session and token. */
  timedOut(req: Request, res: Response): Promise<void>;
  /** Forgets a pending sign-in and answers {@link SignInResponses.timedOut}: the flow starts again. */
  restart(req: Request, res: Response): Promise<void>;
  sendOutcome(res: Response, outcome: SignInOutcome): void;
  /** Deny by default while a sign-in is pending. */
  gate: RequestHandler;
}

/** Builds the {@link SignInResponses} over the request sessions, anti-forgery and the state machine. */
export function createSignInResponses({
  sessions,
  antiforgery,
  signIn,
}: SignInResponseDeps): SignInResponses {
  /** Answers a 209 step change with a state bound to the (possibly new) session. */
  function redirect(res: Response, target: string, session: Session): void {
    antiforgery.issue(res, session.id);
    res.status(REDIRECT_STATUS).json({ redirect: target, state: antiforgery.stateFor(session.id) });
  }

  /**
   * The protocol's empty 400: the client shows "Your session had timed out. Please try again." on the sign-in
   * page, keeping the returnUrl. A fresh session and token come with it, so the retry works.
   */
  async function timedOut(req: Request, res: Response): Promise<void> {
    const session = await sessions.ensure(req, res);
    antiforgery.issue(res, session.id);
    sendSessionTimedOut(res);
  }

  /** A stale or out-of-order pending sign-in is forgotten and the browser starts again at the sign-in page. */
  async function restart(req: Request, res: Response): Promise<void> {
    const session = await sessions.current(req);
    if (session) await signIn.abandon(session);
    await timedOut(req, res);
  }

  function sendOutcome(res: Response, outcome: SignInOutcome): void {
    switch (outcome.kind) {
      case 'redirect':
        redirect(res, outcome.redirect, outcome.session);
        return;
      case 'invalidCredentials':
        sendFormError(res, 'invalidCredentials');
        return;
      case 'throttled':
        sendTooManyAttempts(res, { seconds: outcome.retryAfterSeconds }, 400);
        return;
      case 'unavailable':
        // Fail closed (S8): no sign-in while the throttle's store is down.
        sendFormError(res, 'serviceUnavailable', 503);
        return;
      case 'stepNotAllowed':
        sendFormError(res, 'stepNotAllowed');
    }
  }

  /**
   * Deny by default while a sign-in is pending (S3, S20): only the calls of the step it waits at, and the calls
   * outside any step, are answered. Any other call — or any call of a stale pending sign-in other than those
   * outside calls — forgets the pending sign-in and restarts the flow.
   */
  const gate: RequestHandler = (req, res, next) => {
    sessions
      .current(req)
      .then(async (session) => {
        const state = signIn.pendingState(session);
        if (state.kind === 'none') return next();
        if (!signIn.allowsCall(session, callName(req))) return restart(req, res);
        if (state.kind === 'stale' && session) await signIn.abandon(session);
        next();
      })
      .catch(next);
  };

  return { redirect, timedOut, restart, sendOutcome, gate };
}
