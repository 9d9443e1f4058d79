import { withReturnUrl } from 'shared-contracts';
import type { Session } from '../../infra/sessions/session-manager.js';
import type { PendingSignIn } from '../../infra/sessions/session-store.js';
import type { Browser } from '../browser.js';
import type { SignInContext, SignInOutcome } from './sign-in-context.js';
import { StepId, type PassedMark, type SignInStep } from './sign-in-step.js';
import type { SignInWalk } from './sign-in-walk.js';

/** The sign-in page (SPEC.md §3): where a silent sign-in that needs the password first sends the browser. */
const SIGN_IN_PAGE = '/account/login';

/**
 * Steps a silent sign-in never parks the cookie holder at (ADR 0005, 0020): they change how the account signs in on
 * the strength of the sign-in so far, which for a silent sign-in is only a cookie. The password comes first.
 */
const PASSWORD_FIRST: readonly StepId[] = [StepId.expiredPassword, StepId.twoFactorSetup];

/** `SilentLogin` (ADR 0020): a remember-me session signed in again without typing. */
export function silentEntry(ctx: SignInContext, walk: Pick<SignInWalk, 'begin'>) {
  const { store, steps, clock, facts, rememberedBrowsers } = ctx;
  const { begin } = walk;

  /**
   * `SilentLogin` (ADR 0020): a browser signed in with remember-me, reaching the sign-in page for `returnUrl`, is
   * signed in again without typing. Answers undefined (the call's `false`) unless the session is signed in, is a
   * remember-me session, and its user is unchanged (stamp, not disabled). The steps are walked again with credit
   * only for what still holds: the second factor counts when the remembered sign-in proved one (`mfa` in its amr)
   * or this browser is remembered for it now (ADR 0008); the chosen customer counts; the passkey offer is not made
   * again. Nothing is proved by the cookie (ADR 0005): the sign-in keeps the remembered sign-in's time and methods,
   * and only a step that proves a credential (the second factor) renews the time.
   *
   * - No step open: the session stays as it is (same sign-in, same auth_time); the answer is the returnUrl.
   * - The second factor (an administrator's new rule met by a factor the account has, a remembered browser that
   *   lapsed) or a customer to choose: the browser goes to that step as a pending sign-in (new session id, S24).
   * - The 2FA set-up or the expired password: these would let the cookie holder enrol their own authenticator, or
   *   set a new password, on the strength of the cookie alone. The remembered sign-in ends here (new id, only the
   *   username kept, S24) and the answer is the sign-in page for the same returnUrl, which asks for the password;
   *   the steps follow it. Not `false`: the page would offer "Continue as", which goes to the application on the
   *   old sign-in with the step never asked.
   */
  async function silentSignIn(
    browser: Browser,
    session: Session,
    input: { returnUrl: string; ip: string },
  ): Promise<SignInOutcome | undefined> {
    const account = session.record.data.account;
    if (!account || !session.record.persistent) return undefined;
    const user = await store.users.findById(account.userId);
    if (!user || user.disabled || user.securityStamp !== account.securityStamp) return undefined;
    const now = clock.now();
    const pending: PendingSignIn = {
      userId: user.id,
      returnUrl: input.returnUrl,
      rememberMe: true,
      amr: [...account.amr],
      passed: [
        'password',
        StepId.passkeyOffer,
        ...(account.amr.includes('mfa') ? [StepId.twoFactor] : []),
        ...(account.customerId !== undefined ? [StepId.customerSelection] : []),
      ] satisfies PassedMark[],
      current: undefined,
      startedAt: now,
      // The cookie proves nothing (ADR 0005): the remembered sign-in's own time stays the sign-in time.
      provedAt: account.authTime * 1000,
      ...((await rememberedBrowsers?.recognise(browser, user)) ? { secondFactorRemembered: true } : {}),
    };
    let open: SignInStep | undefined;
    for (const step of steps.list()) {
      if (pending.passed.includes(step.id)) continue;
      if (await step.appliesTo({ user, pending, now, facts: facts })) {
        open = step;
        break;
      }
    }
    await store.audit.record({
      at: now,
      kind: 'sign-in.silent',
      userId: user.id,
      ip: input.ip,
      data: open
        ? { step: open.id, ...(PASSWORD_FIRST.includes(open.id) ? { passwordRequired: true } : {}) }
        : {},
    });
    if (!open) return { kind: 'redirect', redirect: input.returnUrl, session };
    if (PASSWORD_FIRST.includes(open.id)) {
      const username = session.record.data.username;
      const next = await browser.regenerate(session, username === undefined ? {} : { username }, false);
      return { kind: 'redirect', redirect: withReturnUrl(SIGN_IN_PAGE, input.returnUrl), session: next };
    }
    return begin(browser, session, user, pending);
  }

  return { silentSignIn };
}
