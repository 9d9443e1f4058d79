import { withReturnUrl } from 'shared-contracts';
import type { Session } from '../../infra/sessions/session-manager.js';
import type { PendingSignIn, SessionData, SignedInAccount } from '../../infra/sessions/session-store.js';
import type { AuditEvent } from '../../store/audit.repository.js';
import type { User } from '../../store/user.repository.js';
import type { Browser } from '../browser.js';
import type { PendingSignIns } from './pending-sign-ins.js';
import type { SignInContext, SignInOutcome } from './sign-in-context.js';
import { StepId } from './sign-in-step.js';
import { upstreamLink } from './upstream-link.js';

/**
 * The steps whose passing proves a credential the account already had: the second factor (a code of a confirmed
 * method, or a recovery code). The others prove nothing of the kind — the expired-password change sets a new password,
 * the 2FA set-up enrols a factor the caller brings, the passkey offer and the customer selection are choices — so they
 * leave the sign-in time where the first factor put it (ADR 0005 "Only a proved factor renews the sign-in time").
 */
const STEPS_THAT_PROVE: readonly StepId[] = [StepId.twoFactor];

/**
 * The step walk (ARCHITECTURE.md, ADR 0005): a first factor proved starts a pending sign-in under a new session id,
 * every registered step that applies is walked in order, and the last one passed completes the sign-in (new id
 * again, S24; remember-me only then) and writes what it leaves behind.
 */
export function signInWalk(ctx: SignInContext, pendingSignIns: Pick<PendingSignIns, 'isAtStep'>) {
  const {
    store,
    sessions,
    steps,
    clock,
    metrics,
    facts,
    rememberedBrowsers,
    secondFactorBrowsers,
    onRememberBrowser,
  } = ctx;
  const { isAtStep } = pendingSignIns;
  const { linkUpstream } = upstreamLink(ctx);

  /**
   * A new pending sign-in under a new session id (S24: whatever an attacker planted before is worthless now), then
   * on to its first open step. The cookie stays a browser-session cookie until every step has passed; remember-me
   * applies at completion. `passed` is the audit event of the first factor just proved: it is written before the
   * sign-in parks at a step, and together with `sign-in.completed` in one statement when no step applies (one write
   * of the audit table per sign-in instead of two: ADR 0015).
   */
  async function begin(
    browser: Browser,
    session: Session,
    user: User,
    pending: PendingSignIn,
    passed?: AuditEvent,
    username: string = user.username,
  ): Promise<SignInOutcome> {
    // One regeneration writes the outcome at once (S24): the pending sign-in parked at its first open step, or,
    // when no step applies, the signed-in account (persistent for remember-me). Regenerating with the pending
    // sign-in and then saving the outcome over it wrote the new record twice (three times with remember-me).
    const now = clock.now();
    let next: Session;
    try {
      const step = await firstOpenStep(user, pending, now);
      if (step) {
        const factor = passed;
        passed = undefined;
        if (factor) await store.audit.record(factor);
        pending.current = step.id;
        next = await browser.regenerate(session, { pending, username }, false);
        return atStep(step, pending, next);
      }
      const data = signedInData(user, pending, username, now);
      await finishLasting(browser, user, pending);
      next = await browser.regenerate(session, data, pending.rememberMe);
    } catch (error) {
      // The factor was proved even though the sign-in could not go on: the trail says so.
      if (passed) await store.audit.record(passed).catch(() => undefined);
      throw error;
    }
    return completed(user, pending, next, now, passed);
  }

  /**
   * What a sign-in leaves behind beyond its session is written only here, once every step has passed (issue 39):
   * the upstream identity `Link` asked for (bound to the account's security stamp, so a new password, a reset,
   * `sessions revoke` or disabling ends it), this browser as a known second-factor device, and "remember this
   * browser" when it was ticked at the second factor.
   */
  async function finishLasting(browser: Browser, user: User, pending: PendingSignIn): Promise<void> {
    if (pending.link) await linkUpstream(user, pending.link);
    // A browser that completed a sign-in with a second factor is judged by its own 2FA counter from now on.
    if (pending.passed.includes(StepId.twoFactor) || pending.passed.includes(StepId.twoFactorSetup))
      secondFactorBrowsers?.remember(browser, user);
    if (pending.rememberBrowser) await onRememberBrowser?.(browser, user);
  }

  /** The first step of the walk that `pending` has not passed and that applies to `user`. */
  async function firstOpenStep(user: User, pending: PendingSignIn, now: number) {
    for (const step of steps.list()) {
      if (pending.passed.includes(step.id)) continue;
      if (await step.appliesTo({ user, pending, now, facts: facts })) return step;
    }
    return undefined;
  }

  /** The 209 to a step's page, the returnUrl kept. */
  function atStep(step: { path: string }, pending: PendingSignIn, session: Session): SignInOutcome {
    return { kind: 'redirect', redirect: withReturnUrl(step.path, pending.returnUrl), session };
  }

  /**
   * What a completed sign-in keeps in its session. Its sign-in time (`authTime`: OIDC `auth_time` and the stamp of
   * S21's recent full sign-in) is the time of the last credential the sign-in proved (ADR 0005), never the time it
   * completed: a step that proves nothing, or a silent sign-in, does not renew it.
   */
  function signedInData(user: User, pending: PendingSignIn, username: string, now: number): SessionData {
    const account: SignedInAccount = {
      userId: user.id,
      authTime: Math.floor(Math.min(pending.provedAt, now) / 1000),
      amr: pending.amr,
      securityStamp: user.securityStamp,
    };
    return { account, username, ...(pending.upstream ? { upstream: pending.upstream } : {}) };
  }

  /** Audits the completed sign-in (after `passed`, the first factor's event, when not written yet) and answers its
   * 209 to the returnUrl. */
  async function completed(
    user: User,
    pending: PendingSignIn,
    session: Session,
    now: number,
    passed?: AuditEvent,
  ): Promise<SignInOutcome> {
    const completed: AuditEvent = {
      at: now,
      kind: 'sign-in.completed',
      userId: user.id,
      ip: null,
      data: { amr: pending.amr },
    };
    await (passed ? store.audit.record(passed, completed) : store.audit.record(completed));
    metrics.signIn('success');
    return { kind: 'redirect', redirect: pending.returnUrl, session };
  }

  /**
   * This browser is remembered after a second factor of `user` (ADR 0008) and not forgotten since (ADR 0036),
   * unless the sign-in is for changing the second factor (S21 wants the factor itself then).
   */
  async function rememberedSecondFactor(
    browser: Browser,
    user: User,
    returnUrl: string,
  ): Promise<{ secondFactorRemembered?: true }> {
    if (!rememberedBrowsers || returnUrl.startsWith('/account/setup-twofactor')) return {};
    return (await rememberedBrowsers.recognise(browser, user)) ? { secondFactorRemembered: true } : {};
  }

  /**
   * Marks the current step passed (called by that step's own call once it verified its input) and moves on.
   * Refused unless `stepId` is the pending step.
   */
  async function completeStep(
    browser: Browser,
    session: Session,
    stepId: StepId,
    amr: string[] = [],
  ): Promise<SignInOutcome> {
    const pending = session.record.data.pending;
    if (!pending || !isAtStep(session, stepId)) return { kind: 'stepNotAllowed' };
    const user = await store.users.findById(pending.userId);
    if (!user || user.disabled) return { kind: 'stepNotAllowed' };
    pending.passed.push(stepId);
    pending.amr = [...new Set([...pending.amr, ...amr])];
    // Only a step that proved a credential of the account renews the sign-in time (ADR 0005).
    if (STEPS_THAT_PROVE.includes(stepId)) pending.provedAt = clock.now();
    pending.current = undefined;
    return advance(browser, session, user, pending);
  }

  async function advance(
    browser: Browser,
    session: Session,
    user: User,
    pending: PendingSignIn,
  ): Promise<SignInOutcome> {
    const now = clock.now();
    const step = await firstOpenStep(user, pending, now);
    if (step) {
      pending.current = step.id;
      session.record.data.pending = pending;
      await sessions.save(session);
      return atStep(step, pending, session);
    }
    const data = signedInData(user, pending, session.record.data.username ?? user.username, now);
    await finishLasting(browser, user, pending);
    // After a further step (second factor, ...) the id changes again (S24); remember-me needs the persistent
    // cookie that only a completed sign-in gets.
    const finished =
      pending.passed.length > 1 || pending.rememberMe
        ? await browser.regenerate(session, data, pending.rememberMe)
        : session;
    if (finished === session) {
      session.record.data = data;
      await sessions.save(session);
    }
    return completed(user, pending, finished, now);
  }

  return { begin, rememberedSecondFactor, completeStep };
}

/** The step walk. */
export type SignInWalk = ReturnType<typeof signInWalk>;
