import type { Session } from '../../infra/sessions/session-manager.js';
import type { PendingSignIn } from '../../infra/sessions/session-store.js';
import type { AuditEvent } from '../../store/audit.repository.js';
import type { User } from '../../store/user.repository.js';
import type { Browser } from '../browser.js';
import { StepId, type PassedMark } from './sign-in-step.js';
import type { SignInContext, SignInOutcome } from './sign-in-context.js';
import type { SignInWalk } from './sign-in-walk.js';

/** `SecureLogin`: a passkey (WebAuthn, ADR 0016) as both factors. */
export function passkeyEntry(ctx: SignInContext, walk: Pick<SignInWalk, 'begin'>) {
  const { clock } = ctx;
  const { begin } = walk;

  /**
   * `SecureLogin`: a verified passkey assertion (user verification required) signs `user` in. It counts as two
   * factors (possession and the PIN or biometric, ADR 0016): the password, second-factor and passkey-offer steps
   * are passed; the steps after them (customer selection) still apply. The session id is replaced (S24).
   */
  async function deviceSignIn(
    browser: Browser,
    session: Session,
    user: User,
    input: { returnUrl: string; ip: string; credentialId: string },
  ): Promise<SignInOutcome> {
    if (user.disabled) return { kind: 'invalidCredentials' };
    const passed: AuditEvent = {
      at: clock.now(),
      kind: 'sign-in.passkey',
      userId: user.id,
      ip: input.ip,
      data: { credentialId: input.credentialId },
    };
    const pending: PendingSignIn = {
      userId: user.id,
      returnUrl: input.returnUrl,
      rememberMe: false,
      amr: ['hwk', 'user', 'mfa'],
      // "password" stands for the first factor the state machine requires; the passkey gave both.
      passed: [
        'password',
        StepId.expiredPassword,
        StepId.twoFactor,
        StepId.twoFactorSetup,
        StepId.passkeyOffer,
      ] satisfies PassedMark[],
      current: undefined,
      startedAt: clock.now(),
      // The passkey's assertion is the proof (ADR 0005): the sign-in time.
      provedAt: clock.now(),
    };
    return begin(browser, session, user, pending, passed);
  }

  return { deviceSignIn };
}
