import type { Request, Response } from 'express';
import type { TwoFactorService } from '../identity/two-factor/two-factor.service.js';
import type { SessionAuthService } from '../identity/session/session-auth.service.js';
import type { SignInService } from '../identity/sign-in/sign-in.service.js';
import type { StepId } from '../identity/sign-in/sign-in-step.js';
import type { Session } from '../infra/sessions/session-manager.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import { sendFormError } from './problem.js';
import type { SignInResponses } from './sign-in-responses.js';
import { sessionReaderOf } from './browser.js';

/** Who may change an account's sign-in methods: a pending sign-in at a step, or the signed-in account itself. */
export interface StepOrAccountActor {
  user: NonNullable<Awaited<ReturnType<TwoFactorService['user']>>>;
  session: Session;
  /** True for the pending sign-in at the step (its calls then continue the sign-in). */
  duringSignIn: boolean;
}

/** What {@link stepOrRecentAccount} reads. */
export interface StepOrAccountDeps {
  sessions: RequestSessions;
  signIn: Pick<SignInService, 'isAtStep'>;
  auth: Pick<SessionAuthService, 'signedInUser'>;
  twoFactor: Pick<TwoFactorService, 'recentFullSignIn' | 'user'>;
  responses: Pick<SignInResponses, 'restart'>;
}

/** A vendor account's set-up call: 400 `vendorCredentialsOnly`, as the security centre answers it (ADR 0041). */
function refuseVendor(res: Response): undefined {
  sendFormError(res, 'vendorCredentialsOnly');
  return undefined;
}

/**
 * The caller of a set-up call (the 2FA wizard, device registration): the pending sign-in waiting at `step`, or a
 * signed-in account (only the account without `step`: linking another upstream, ADR 0018). Answers for itself (and returns undefined) otherwise: anyone else starts again at the sign-in
 * page; a signed-in account whose full sign-in is not recent must sign in again first (S21: 403
 * `recentSignInRequired`).
 */
export function stepOrRecentAccount(deps: StepOrAccountDeps, step: StepId | undefined) {
  return async (req: Request, res: Response): Promise<StepOrAccountActor | undefined> => {
    const session = await deps.sessions.current(req);
    if (session && step !== undefined && deps.signIn.isAtStep(session, step)) {
      const user = await deps.twoFactor.user(session.record.data.pending!.userId);
      if (user?.vendorId) return refuseVendor(res);
      if (user && !user.disabled) return { user, session, duringSignIn: true };
    }
    const signedIn = session ? await deps.auth.signedInUser(sessionReaderOf(deps.sessions, req)) : undefined;
    if (!session || !signedIn) {
      await deps.responses.restart(req, res);
      return undefined;
    }
    // A vendor account adds no way in of its own: no passkey, second factor or linked account (ADR 0041).
    if (signedIn.user.vendorId) return refuseVendor(res);
    const { info } = signedIn;
    if (!(await deps.twoFactor.recentFullSignIn(signedIn.user.id, info.authTime, info.amr))) {
      // One rule and one answer for every change of how one signs in (S21, ADR 0036): 403, as the security centre.
      sendFormError(res, 'recentSignInRequired', 403);
      return undefined;
    }
    return { user: signedIn.user, session, duringSignIn: false };
  };
}
