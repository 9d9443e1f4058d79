import type { Session } from '../../infra/sessions/session-manager.js';
import type { PendingSignIn } from '../../infra/sessions/session-store.js';
import type { AuditEvent } from '../../store/audit.repository.js';
import type { User } from '../../store/user.repository.js';
import type { Browser } from '../browser.js';
import type { SignInContext, SignInOutcome } from './sign-in-context.js';
import type { SignInWalk } from './sign-in-walk.js';

/** `LoginWithOTT`: a one-time token (ADR 0019) as the first factor. */
export function oneTimeTokenEntry(
  ctx: SignInContext,
  walk: Pick<SignInWalk, 'begin' | 'rememberedSecondFactor'>,
) {
  const { clock, knownBrowsers } = ctx;
  const { begin, rememberedSecondFactor } = walk;

  /**
   * `LoginWithOTT`: a one-time token (the typed code or the mailed link, already checked and used by the
   * one-time-sign-in service, ADR 0019) stands for the first factor, as the password does at `Login`: the password
   * step is passed and every later step still applies — the second factor above all. Like `Login`, a browser
   * remembered after a second factor skips that step; the session id is replaced (S24).
   */
  async function oneTimeTokenSignIn(
    browser: Browser,
    session: Session,
    user: User,
    input: { returnUrl: string; ip: string; via: 'code' | 'link' },
  ): Promise<SignInOutcome> {
    if (user.disabled) return { kind: 'invalidCredentials' };
    knownBrowsers?.remember(browser, user);
    const passed: AuditEvent = {
      at: clock.now(),
      kind: 'sign-in.one-time-token',
      userId: user.id,
      ip: input.ip,
      data: { via: input.via },
    };
    const pending: PendingSignIn = {
      userId: user.id,
      returnUrl: input.returnUrl,
      rememberMe: false,
      // RFC 8176 "otp": a one-time password (here mailed). Not "mfa": the second factor is still to come.
      amr: ['otp'],
      passed: ['password'],
      current: undefined,
      startedAt: clock.now(),
      // The token proves control of the account's mailbox just now, as a reset link does (ADR 0005, 0019): it renews
      // the sign-in time like a password. A "recent full sign-in" still needs the second factor when the account has
      // one (S21), which this token never stands for.
      provedAt: clock.now(),
      ...(await rememberedSecondFactor(browser, user, input.returnUrl)),
    };
    return begin(browser, session, user, pending, passed);
  }

  return { oneTimeTokenSignIn };
}
