import type { Clock } from '../../infra/clock.js';
import type { KnownDevices } from '../../infra/throttle/known-devices.js';
import type { LoginThrottle } from '../../infra/throttle/login-throttle.js';
import { ThrottleUnavailableError } from '../../infra/throttle/login-throttle.js';
import type { Session } from '../../infra/sessions/session-manager.js';
import type {
  PendingLink,
  PendingSignIn,
  SessionData,
  SignedInAccount,
  UpstreamSession,
} from '../../infra/sessions/session-store.js';
import type { AuditEvent } from '../../store/audit.repository.js';
import type { Store } from '../../store/store.js';
import { normaliseLogin, type User } from '../../store/user.repository.js';
import type { Browser, SessionWriter } from '../browser.js';
import { findLoginOnce } from '../login-lookup.js';
import { dummyPasswordHash, verifyPassword } from '../passwords.service.js';
import type { RememberedBrowsers } from '../mfa/remembered-browsers.js';
import { StepId, type PassedMark, type SignInFacts, type SignInStep } from './sign-in-step.js';
import type { SignInStepRegistry } from './step-registry.js';

/** A pending sign-in (password passed, steps open) lasts this long; then the flow starts again (ADR 0005). */
export const PENDING_SIGN_IN_MS = 10 * 60_000;

/** Where a session's sign-in stands. */
export type PendingState =
  | { kind: 'none' }
  /** Older than {@link PENDING_SIGN_IN_MS}, or waiting at a step the registry no longer has. */
  | { kind: 'stale' }
  | { kind: 'at'; step: SignInStep };

/** What a sign-in call leads to; the HTTP layer turns it into 209 / 400 / 503. */
export type SignInOutcome =
  | { kind: 'redirect'; redirect: string; session: Session }
  | { kind: 'invalidCredentials' }
  /**
   * Refused before any password check. `challenge: 'captcha'` when counters that strangers share refused (the
   * account's or the source's budget, S7): a solved challenge may later let such an attempt through; without it the
   * attempt's own delay or lockout refused.
   */
  | { kind: 'throttled'; retryAfterSeconds: number; challenge?: 'captcha' }
  | { kind: 'unavailable' }
  | { kind: 'stepNotAllowed' };

/** A password sign-in attempt. */
export interface PasswordSignIn {
  login: string;
  password: string;
  rememberMe: boolean;
  /** Already checked with `safeReturnUrl`. */
  returnUrl: string;
  /** Source address, for throttling and audit. */
  ip: string;
  /** The browser has a user-verifying platform authenticator (the device offer needs one, ADR 0016). */
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

/** An upstream sign-in whose identity is linked to `user` (ADR 0018). */
export interface ExternalSignIn {
  returnUrl: string;
  ip: string;
  providerId: string;
  issuer: string;
  /** The methods the upstream reported (`amr`), recorded; `fed` is what the local session says. */
  upstreamAmr: string[];
  /** The partner trusts the upstream's second factor and the upstream reported one: the local 2FA step is passed. */
  secondFactorByUpstream: boolean;
  idToken: string;
}

/** Counters the service reports to /metrics. */
export interface SignInMetrics {
  signIn(result: 'success' | 'failure' | 'throttled' | 'unavailable'): void;
}

/** The store-backed facts the steps decide on. */
export function storeSignInFacts(
  store: Pick<Store, 'users' | 'customers' | 'webauthnCredentials' | 'passwordPolicies' | 'partners'>,
): SignInFacts {
  return {
    hasSecondFactor: (userId) => store.users.hasSecondFactor(userId),
    partnerRequiresTwoFactor: async (user) =>
      user.partnerId ? ((await store.partners.findById(user.partnerId))?.requireTwoFactor ?? false) : false,
    hasDevice: (userId) => store.users.hasWebauthnCredential(userId),
    customerCount: (userId) => store.customers.countCustomersOf(userId),
    deviceOfferSkippedAt: (userId) => store.webauthnCredentials.offerSkippedAt(userId),
    passwordMaxAgeDays: async (user) =>
      user.partnerId ? ((await store.passwordPolicies.find(user.partnerId))?.maxAgeDays ?? 0) : 0,
  };
}

/**
 * The sign-in state machine (ARCHITECTURE.md, ADR 0005): password first, then every registered step that applies,
 * then the returnUrl. The pending sign-in lives in the server session for at most {@link PENDING_SIGN_IN_MS}; the
 * session id is replaced when the password passes and again when the last step passes (S24). The session becomes
 * persistent (remember-me) only when the sign-in completes.
 */
export class SignInService {
  private readonly facts: SignInFacts;

  constructor(
    private readonly store: Store,
    private readonly sessions: SessionWriter,
    private readonly throttle: LoginThrottle,
    readonly steps: SignInStepRegistry,
    private readonly clock: Clock,
    private readonly metrics: SignInMetrics = { signIn: () => undefined },
    facts?: SignInFacts,
    /** Browsers where an account signed in before (S7); without it only known source addresses count. */
    private readonly knownDevices?: KnownDevices,
    /** Browsers remembered after a second factor (ADR 0008): their sign-ins skip the 2FA step. */
    private readonly rememberedBrowsers?: RememberedBrowsers,
    /** Browsers that completed a sign-in with a second factor: their own 2FA counter (issue 39). */
    private readonly secondFactorDevices?: KnownDevices,
    /** "Remember this browser" once a sign-in that asked for it completes (the partner's rule applies there). */
    private readonly onRememberBrowser?: (browser: Browser, user: User) => Promise<void>,
  ) {
    this.facts = facts ?? storeSignInFacts(store);
  }

  /** `Login`: checks the password (throttled, same work for unknown users) and starts the step walk. */
  async passwordSignIn(browser: Browser, session: Session, input: PasswordSignIn): Promise<SignInOutcome> {
    // The account is resolved first (one indexed lookup, shared with the captcha check of the same request), so the
    // throttle counts every spelling of it on one key (S4); a login that matches nobody is counted as the lookup
    // normalises it. Reserving still comes before the hash (S5), and both paths do the same work (S10, S11).
    const user = await findLoginOnce(browser, this.store.users, input.login);
    let decision;
    try {
      decision = await this.throttle.begin({
        account: user ? `user:${user.id}` : `login:${normaliseLogin(input.login)}`,
        source: input.ip,
        device: user ? this.knownDevices?.recognise(browser, user) : undefined,
      });
    } catch (error) {
      if (error instanceof ThrottleUnavailableError) {
        this.metrics.signIn('unavailable');
        return { kind: 'unavailable' };
      }
      throw error;
    }
    if (!decision.allowed) {
      this.metrics.signIn('throttled');
      // A refused attempt on a real account is its lockout; names that match nobody leave no row to flood with.
      if (user)
        await this.store.audit.record({
          at: this.clock.now(),
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
    const ok = passwordOk && user !== undefined && user.passwordHash !== null && !user.disabled;

    // The username is kept for the session on both paths, so both write the same and answer the same (S10).
    session.record.data.username = input.login;

    if (!ok) {
      // Independent writes, awaited together: the answer waits for the slowest, not for their sum.
      await Promise.all([
        this.throttle.failed(decision.attempt).catch(() => {
          // The attempt failed anyway; the next one will meet the store error and fail closed.
        }),
        this.sessions.save(session),
        this.store.audit.record({
          at: this.clock.now(),
          kind: 'sign-in.failed',
          userId: user?.id ?? null,
          ip: input.ip,
          data: { reason: user ? (user.disabled ? 'disabled' : 'password') : 'unknown-user' },
        }),
      ]);
      this.metrics.signIn('failure');
      return { kind: 'invalidCredentials' };
    }

    try {
      await this.throttle.succeeded(decision.attempt);
    } catch {
      this.metrics.signIn('unavailable');
      return { kind: 'unavailable' };
    }
    const extra = input.afterPassword ? await input.afterPassword(user) : undefined;
    // From now on this browser is one of the account's known devices: strangers' guesses do not refuse it (S7).
    this.knownDevices?.remember(browser, user);
    const passed: AuditEvent = {
      at: this.clock.now(),
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
      startedAt: this.clock.now(),
      ...this.rememberedSecondFactor(browser, user, input.returnUrl),
      ...(input.platformAuthenticator ? { platformAuthenticator: true } : {}),
    };
    // New id once the password passed (S24): whatever an attacker planted before is worthless now.
    return this.begin(browser, session, user, pending, passed, input.login);
  }

  /**
   * `SecureLogin`: a verified passkey assertion (user verification required) signs `user` in. It counts as two
   * factors (possession and the PIN or biometric, ADR 0016): the password, second-factor and device-offer steps
   * are passed; the steps after them (customer selection) still apply. The session id is replaced (S24).
   */
  async deviceSignIn(
    browser: Browser,
    session: Session,
    user: User,
    input: { returnUrl: string; ip: string; credentialId: string },
  ): Promise<SignInOutcome> {
    if (user.disabled) return { kind: 'invalidCredentials' };
    const passed: AuditEvent = {
      at: this.clock.now(),
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
        StepId.deviceOffer,
      ] satisfies PassedMark[],
      current: undefined,
      startedAt: this.clock.now(),
    };
    return this.begin(browser, session, user, pending, passed);
  }

  /**
   * `LoginWithOTT`: a one-time token (the typed code or the mailed link, already checked and used by the
   * one-time-sign-in service, ADR 0019) stands for the first factor, as the password does at `Login`: the password
   * step is passed and every later step still applies — the second factor above all. Like `Login`, a browser
   * remembered after a second factor skips that step; the session id is replaced (S24).
   */
  async oneTimeTokenSignIn(
    browser: Browser,
    session: Session,
    user: User,
    input: { returnUrl: string; ip: string; via: 'code' | 'link' },
  ): Promise<SignInOutcome> {
    if (user.disabled) return { kind: 'invalidCredentials' };
    this.knownDevices?.remember(browser, user);
    const passed: AuditEvent = {
      at: this.clock.now(),
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
      startedAt: this.clock.now(),
      ...this.rememberedSecondFactor(browser, user, input.returnUrl),
    };
    return this.begin(browser, session, user, pending, passed);
  }

  /**
   * An upstream sign-in (ADR 0018): the upstream's ID token, already validated, named an identity linked to `user`
   * by (issuer, subject). The upstream stands for the password (amr `fed`); the local steps still apply — the second
   * factor too, unless the provider's partner trusts the upstream's and the upstream reported one. The session id
   * is replaced (S24).
   */
  async externalSignIn(
    browser: Browser,
    session: Session,
    user: User,
    input: ExternalSignIn,
  ): Promise<SignInOutcome> {
    if (user.disabled) return { kind: 'invalidCredentials' };
    const passed: AuditEvent = {
      at: this.clock.now(),
      kind: 'sign-in.external',
      userId: user.id,
      ip: input.ip,
      data: { provider: input.providerId, issuer: input.issuer, upstreamAmr: input.upstreamAmr },
    };
    const pending: PendingSignIn = {
      userId: user.id,
      returnUrl: input.returnUrl,
      rememberMe: false,
      amr: input.secondFactorByUpstream ? ['fed', 'mfa'] : ['fed'],
      // "password" stands for the first factor; the local password was not used, so its expiry does not apply.
      passed: [
        'password',
        StepId.expiredPassword,
        ...(input.secondFactorByUpstream ? [StepId.twoFactor, StepId.twoFactorSetup] : []),
      ] satisfies PassedMark[],
      current: undefined,
      startedAt: this.clock.now(),
      upstream: { providerId: input.providerId, idToken: input.idToken },
    };
    return this.begin(browser, session, user, pending, passed);
  }

  /**
   * A new pending sign-in under a new session id (S24: whatever an attacker planted before is worthless now), then
   * on to its first open step. The cookie stays a browser-session cookie until every step has passed; remember-me
   * applies at completion. `passed` is the audit event of the first factor just proved: it is written before the
   * sign-in parks at a step, and together with `sign-in.completed` in one statement when no step applies (one write
   * of the audit table per sign-in instead of two: ADR 0015).
   */
  private async begin(
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
    const now = this.clock.now();
    let next: Session;
    try {
      const step = await this.firstOpenStep(user, pending, now);
      if (step) {
        const factor = passed;
        passed = undefined;
        if (factor) await this.store.audit.record(factor);
        pending.current = step.id;
        next = await browser.regenerate(session, { pending, username }, false);
        return this.atStep(step, pending, next);
      }
      const data = this.signedInData(user, pending, username, now);
      await this.finishLasting(browser, user, pending);
      next = await browser.regenerate(session, data, pending.rememberMe);
    } catch (error) {
      // The factor was proved even though the sign-in could not go on: the trail says so.
      if (passed) await this.store.audit.record(passed).catch(() => undefined);
      throw error;
    }
    return this.completed(user, pending, next, now, passed);
  }

  /**
   * What a sign-in leaves behind beyond its session is written only here, once every step has passed (issue 39):
   * the upstream identity `Link` asked for (bound to the account's security stamp, so a new password, a reset,
   * `sessions revoke` or disabling ends it), this browser as a known second-factor device, and "remember this
   * browser" when it was ticked at the second factor.
   */
  private async finishLasting(browser: Browser, user: User, pending: PendingSignIn): Promise<void> {
    if (pending.link) await this.linkUpstream(user, pending.link);
    // A browser that completed a sign-in with a second factor is judged by its own 2FA counter from now on.
    if (pending.passed.includes(StepId.twoFactor) || pending.passed.includes(StepId.twoFactorSetup))
      this.secondFactorDevices?.remember(browser, user);
    if (pending.rememberBrowser) await this.onRememberBrowser?.(browser, user);
  }

  /** Links the identity `Link` brought, now that the sign-in is complete. */
  private async linkUpstream(user: User, link: PendingLink): Promise<void> {
    const { issuer, subject, providerId } = link;
    let outcome: 'external.linked' | 'external.link.refused' = 'external.linked';
    if (
      !(await this.store.externalLogins.link({
        issuer,
        subject,
        userId: user.id,
        providerId,
        securityStamp: user.securityStamp,
      }))
    ) {
      // Already there: this account's (a lapsed link is made live again), or another's (one identity, one account).
      const existing = await this.store.externalLogins.find(issuer, subject);
      if (existing?.userId === user.id)
        await this.store.externalLogins.renew(issuer, subject, user.id, user.securityStamp);
      else outcome = 'external.link.refused';
    }
    await this.store.audit.record({
      at: this.clock.now(),
      kind: outcome,
      userId: user.id,
      ip: null,
      data: { provider: providerId, issuer, via: 'sign-in' },
    });
  }

  /** The first step of the walk that `pending` has not passed and that applies to `user`. */
  private async firstOpenStep(user: User, pending: PendingSignIn, now: number) {
    for (const step of this.steps.list()) {
      if (pending.passed.includes(step.id)) continue;
      if (await step.appliesTo({ user, pending, now, facts: this.facts })) return step;
    }
    return undefined;
  }

  /** The 209 to a step's page, the returnUrl kept. */
  private atStep(step: { path: string }, pending: PendingSignIn, session: Session): SignInOutcome {
    const query = new URLSearchParams({ returnUrl: pending.returnUrl }).toString();
    return { kind: 'redirect', redirect: `${step.path}?${query}`, session };
  }

  /** What a completed sign-in keeps in its session. */
  private signedInData(user: User, pending: PendingSignIn, username: string, now: number): SessionData {
    const account: SignedInAccount = {
      userId: user.id,
      authTime: Math.floor(now / 1000),
      amr: pending.amr,
      securityStamp: user.securityStamp,
    };
    return { account, username, ...(pending.upstream ? { upstream: pending.upstream } : {}) };
  }

  /** Audits the completed sign-in (after `passed`, the first factor's event, when not written yet) and answers its
   * 209 to the returnUrl. */
  private async completed(
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
    await (passed ? this.store.audit.record(passed, completed) : this.store.audit.record(completed));
    this.metrics.signIn('success');
    return { kind: 'redirect', redirect: pending.returnUrl, session };
  }

  /**
   * This browser is remembered after a second factor of `user` (ADR 0008), unless the sign-in is for changing the
   * second factor (S21 wants the factor itself then).
   */
  private rememberedSecondFactor(
    browser: Browser,
    user: User,
    returnUrl: string,
  ): { secondFactorRemembered?: true } {
    return this.rememberedBrowsers?.recognise(browser, user) &&
      !returnUrl.startsWith('/account/setup-twofactor')
      ? { secondFactorRemembered: true }
      : {};
  }

  /**
   * Marks the current step passed (called by that step's own call once it verified its input) and moves on.
   * Refused unless `stepId` is the pending step.
   */
  async completeStep(
    browser: Browser,
    session: Session,
    stepId: StepId,
    amr: string[] = [],
  ): Promise<SignInOutcome> {
    const pending = session.record.data.pending;
    if (!pending || !this.isAtStep(session, stepId)) return { kind: 'stepNotAllowed' };
    const user = await this.store.users.findById(pending.userId);
    if (!user || user.disabled) return { kind: 'stepNotAllowed' };
    pending.passed.push(stepId);
    pending.amr = [...new Set([...pending.amr, ...amr])];
    pending.current = undefined;
    return this.advance(browser, session, user, pending);
  }

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
  async silentSignIn(
    browser: Browser,
    session: Session,
    input: { returnUrl: string; ip: string },
  ): Promise<SignInOutcome | undefined> {
    const account = session.record.data.account;
    if (!account || !session.record.persistent) return undefined;
    const user = await this.store.users.findById(account.userId);
    if (!user || user.disabled || user.securityStamp !== account.securityStamp) return undefined;
    const now = this.clock.now();
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
      ...(this.rememberedBrowsers?.recognise(browser, user) ? { secondFactorRemembered: true } : {}),
    };
    let open: SignInStep | undefined;
    for (const step of this.steps.list()) {
      if (pending.passed.includes(step.id)) continue;
      if (await step.appliesTo({ user, pending, now, facts: this.facts })) {
        open = step;
        break;
      }
    }
    await this.store.audit.record({
      at: now,
      kind: 'sign-in.silent',
      userId: user.id,
      ip: input.ip,
      data: open ? { step: open.id } : {},
    });
    if (!open) return { kind: 'redirect', redirect: input.returnUrl, session };
    return this.begin(browser, session, user, pending);
  }

  /** Where the session's sign-in stands: none pending, stale (restart), or waiting at a step. */
  pendingState(session: Session | undefined): PendingState {
    const pending = session?.record.data.pending;
    if (!pending) return { kind: 'none' };
    const step = pending.current === undefined ? undefined : this.steps.find(pending.current);
    const age = this.clock.now() - pending.startedAt;
    if (!step || !pending.passed.includes('password') || age < 0 || age > PENDING_SIGN_IN_MS) {
      return { kind: 'stale' };
    }
    return { kind: 'at', step };
  }

  /** True when the session has a live pending sign-in waiting at `stepId` (every step before it passed). */
  isAtStep(session: Session | undefined, stepId: StepId): boolean {
    const state = this.pendingState(session);
    return state.kind === 'at' && state.step.id === stepId;
  }

  /** Whether `call` may be answered for this session: always without a pending sign-in, else deny by default. */
  allowsCall(session: Session | undefined, call: string): boolean {
    const state = this.pendingState(session);
    if (state.kind === 'none') return true;
    if (state.kind === 'stale') return this.steps.allows('', call);
    return this.steps.allows(state.step.id, call);
  }

  /** Forgets the pending sign-in (stale, or left out of order): the browser starts again at the sign-in page. */
  async abandon(session: Session): Promise<void> {
    if (!session.record.data.pending) return;
    delete session.record.data.pending;
    await this.sessions.save(session);
  }

  private async advance(
    browser: Browser,
    session: Session,
    user: User,
    pending: PendingSignIn,
  ): Promise<SignInOutcome> {
    const now = this.clock.now();
    const step = await this.firstOpenStep(user, pending, now);
    if (step) {
      pending.current = step.id;
      session.record.data.pending = pending;
      await this.sessions.save(session);
      return this.atStep(step, pending, session);
    }
    const data = this.signedInData(user, pending, session.record.data.username ?? user.username, now);
    await this.finishLasting(browser, user, pending);
    // After a further step (second factor, ...) the id changes again (S24); remember-me needs the persistent
    // cookie that only a completed sign-in gets.
    const finished =
      pending.passed.length > 1 || pending.rememberMe
        ? await browser.regenerate(session, data, pending.rememberMe)
        : session;
    if (finished === session) {
      session.record.data = data;
      await this.sessions.save(session);
    }
    return this.completed(user, pending, finished, now);
  }
}
