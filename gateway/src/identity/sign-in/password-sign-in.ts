import { ThrottleUnavailableError } from '../../infra/throttle/login-throttle.js';
import type { Session } from '../../infra/sessions/session-manager.js';
import type { PendingLink, PendingSignIn, UpstreamSession } from '../../infra/sessions/session-store.js';
import type { AuditEvent } from '../../store/audit.repository.js';
import { normaliseLogin, type User } from '../../store/user.repository.js';
import type { Browser } from '../browser.js';
import { findLoginOnce } from './login-lookup.js';
import { dummyPasswordHash, verifyPassword } from '../passwords/passwords.service.js';
import type { SignInContext, SignInOutcome } from './sign-in-context.js';
import type { SignInWalk } from './sign-in-walk.js';

/** A password sign-in attempt. */
export interface PasswordSignIn {
  login: string;
  password: string;
  rememberMe: boolean;
  /** Already checked with `safeReturnUrl`. */
  returnUrl: string;
  /** Source address, for throttling and audit. */
  ip: string;
  /** The browser has a user-verifying platform authenticator (the passkey offer needs one, ADR 0016). */
  platformAuthenticator?: boolean;
  /**
   * Runs once the password passed, before the new session id. Its amr and upstream are added to the pending
   * sign-in, and its `link` waits there: the upstream identity is linked only when every step has passed (issue 39:
   * a sign-in abandoned at the second factor links nothing), then the id changes again (S24).
   */
  afterPassword?: (
    user: User,
  ) => Promise<{ amr?: string[]; upstream?: UpstreamSession; link?: PendingLink } | undefined>;
}

/** `Login`: the password as the first factor (throttled, S4–S7; the same work for unknown users, S10, S11). */
export function passwordEntry(
  ctx: SignInContext,
  walk: Pick<SignInWalk, 'begin' | 'rememberedSecondFactor'>,
) {
  const { store, sessions, throttle, clock, metrics, knownBrowsers } = ctx;
  const { begin, rememberedSecondFactor } = walk;

  /** `Login`: checks the password (throttled, same work for unknown users) and starts the step walk. */
  async function passwordSignIn(
    browser: Browser,
    session: Session,
    input: PasswordSignIn,
  ): Promise<SignInOutcome> {
    // The account is resolved first (one indexed lookup, shared with the captcha check of the same request), so the
    // throttle counts every spelling of it on one key (S4); a login that matches nobody is counted as the lookup
    // normalises it. Reserving still comes before the hash (S5), and both paths do the same work (S10, S11).
    const user = await findLoginOnce(browser, store.users, input.login);
    let decision;
    try {
      decision = await throttle.begin({
        account: user ? `user:${user.id}` : `login:${normaliseLogin(input.login)}`,
        source: input.ip,
        device: user ? knownBrowsers?.recognise(browser, user) : undefined,
      });
    } catch (error) {
      if (error instanceof ThrottleUnavailableError) {
        metrics.signIn('unavailable');
        return { kind: 'unavailable' };
      }
      throw error;
    }
    if (!decision.allowed) {
      metrics.signIn('throttled');
      // A refused attempt on a real account is its lockout; names that match nobody leave no row to flood with.
      if (user)
        await store.audit.record({
          at: clock.now(),
          kind: 'sign-in.locked',
          userId: user.id,
          ip: input.ip,
          data: { retryAfterSeconds: decision.retryAfterSeconds },
        });
      const { retryAfterSeconds, challenge } = decision;
      return challenge
        ? { kind: 'throttled', retryAfterSeconds, challenge }
        : { kind: 'throttled', retryAfterSeconds };
    }

    // Dummy hash on unknown user (or one without a password) so the timing does not reveal who exists (S11).
    const hash = user?.passwordHash ?? (await dummyPasswordHash());
    const passwordOk = await verifyPassword(hash, input.password);
    const ok =
      passwordOk && user !== undefined && user.passwordHash !== null && !user.disabled && !user.vendorId;

    // The username is kept for the session on both paths, so both write the same and answer the same (S10).
    session.record.data.username = input.login;

    if (!ok) {
      // Independent writes, awaited together: the answer waits for the slowest, not for their sum.
      await Promise.all([
        throttle.failed(decision.attempt).catch(() => {
          // The attempt failed anyway; the next one will meet the store error and fail closed.
        }),
        sessions.save(session),
        store.audit.record({
          at: clock.now(),
          kind: 'sign-in.failed',
          userId: user?.id ?? null,
          ip: input.ip,
          data: { reason: user ? (user.disabled ? 'disabled' : 'password') : 'unknown-user' },
        }),
      ]);
      metrics.signIn('failure');
      return { kind: 'invalidCredentials' };
    }

    try {
      await throttle.succeeded(decision.attempt);
    } catch {
      metrics.signIn('unavailable');
      return { kind: 'unavailable' };
    }
    const extra = input.afterPassword ? await input.afterPassword(user) : undefined;
    // From now on this browser is one of the account's known browsers: strangers' guesses do not refuse it (S7).
    knownBrowsers?.remember(browser, user);
    const passed: AuditEvent = {
      at: clock.now(),
      kind: 'sign-in.password',
      userId: user.id,
      ip: input.ip,
      data: {},
    };
    const pending: PendingSignIn = {
      userId: user.id,
      returnUrl: input.returnUrl,
      rememberMe: input.rememberMe,
      amr: [...new Set(['pwd', ...(extra?.amr ?? [])])],
      passed: ['password'],
      ...(extra?.upstream ? { upstream: extra.upstream } : {}),
      ...(extra?.link ? { link: extra.link } : {}),
      current: undefined,
      startedAt: clock.now(),
      // The password is the credential proved (ADR 0005): the sign-in time, unless a second factor follows.
      provedAt: clock.now(),
      // This sign-in checked the password just now: the expired-password step need not ask for it again (ADR 0039).
      passwordVerifiedAt: clock.now(),
      ...(await rememberedSecondFactor(browser, user, input.returnUrl)),
      ...(input.platformAuthenticator ? { platformAuthenticator: true } : {}),
    };
    // New id once the password passed (S24): whatever an attacker planted before is worthless now.
    return begin(browser, session, user, pending, passed, input.login);
  }

  return { passwordSignIn };
}
