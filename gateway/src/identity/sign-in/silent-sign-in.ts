import type { Session } from '../../infra/sessions/session-manager.js';
import type { PendingSignIn } from '../../infra/sessions/session-store.js';
import type { Browser } from '../browser.js';
import type { SignInContext, SignInOutcome } from './sign-in-context.js';
import { StepId, type PassedMark, type SignInStep } from './sign-in-step.js';
import type { SignInWalk } from './sign-in-walk.js';

/** `SilentLogin` (ADR 0020): a remember-me session signed in again without typing. */
export function silentEntry(ctx: SignInContext, walk: Pick<SignInWalk, 'begin'>) {
  const { store, steps, clock, facts, rememberedBrowsers } = ctx;
  const { begin } = walk;

  /**
   * `SilentLogin` (ADR 0020): a browser signed in with remember-me, reaching the sign-in page for `returnUrl`, is
   * signed in again without typing. Answers undefined (the call's `false`) unless the session is signed in, is a
   * remember-me session, and its user is unchanged (stamp, not disabled). The steps are walked again with credit
   * only for what still holds: the second factor counts when the remembered sign-in proved one (`mfa` in its amr)
   * or this browser is remembered for it now (ADR 0008); the chosen customer counts; the device offer is not made
   * again. An expired password, a second factor an administrator now requires, or a remembered browser that lapsed
   * sends the browser to that step as a pending sign-in (new session id, S24); otherwise the session stays as it
   * is (same sign-in, same auth_time) and the answer is the returnUrl.
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
        StepId.deviceOffer,
        ...(account.amr.includes('mfa') ? [StepId.twoFactor] : []),
        ...(account.customerId !== undefined ? [StepId.customerSelection] : []),
      ] satisfies PassedMark[],
      current: undefined,
      startedAt: now,
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
      data: open ? { step: open.id } : {},
    });
    if (!open) return { kind: 'redirect', redirect: input.returnUrl, session };
    return begin(browser, session, user, pending);
  }

  return { silentSignIn };
}
