import type { Clock } from '../../infra/clock.js';
import type { KnownBrowsers } from '../../infra/throttle/known-browsers.js';
import type { LoginThrottle } from '../../infra/throttle/login-throttle.js';
import type { Session } from '../../infra/sessions/session-manager.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/user.repository.js';
import type { Browser, SessionWriter } from '../browser.js';
import type { AnnounceWayIn } from '../account/ways-in.js';
import type { RememberedBrowsers } from '../two-factor/remembered-browsers.js';
import type { SignInFacts, SignInStep } from './sign-in-step.js';
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

/** Counters the service reports to /metrics. */
export interface SignInMetrics {
  signIn(result: 'success' | 'failure' | 'throttled' | 'unavailable'): void;
}

/** The store-backed facts the steps decide on. */
export function storeSignInFacts(
  store: Pick<Store, 'users' | 'customers' | 'passkeys' | 'passwordPolicies' | 'partners'>,
): SignInFacts {
  return {
    hasSecondFactor: (userId) => store.users.hasSecondFactor(userId),
    partnerRequiresTwoFactor: async (user) =>
      user.partnerId ? ((await store.partners.findById(user.partnerId))?.requireTwoFactor ?? false) : false,
    hasDevice: (userId) => store.users.hasWebauthnCredential(userId),
    customerCount: (userId) => store.customers.countCustomersOf(userId),
    passkeyOfferSkippedAt: (userId) => store.passkeys.offerSkippedAt(userId),
    passwordMaxAgeDays: async (user) =>
      user.partnerId ? ((await store.passwordPolicies.find(user.partnerId))?.maxAgeDays ?? 0) : 0,
  };
}

/**
 * What every part of the sign-in shares (issue 42 split the service along its jobs: the pending sign-in's state, the
 * step walk, the upstream link, and one file per way in): the `SignInService` constructor's arguments.
 */
export interface SignInContext {
  store: Store;
  sessions: SessionWriter;
  throttle: LoginThrottle;
  steps: SignInStepRegistry;
  clock: Clock;
  metrics: SignInMetrics;
  facts: SignInFacts;
  /** Browsers where an account signed in before (S7); without it only known source addresses count. */
  knownBrowsers?: KnownBrowsers | undefined;
  /** Browsers remembered after a second factor (ADR 0008): their sign-ins skip the 2FA step. */
  rememberedBrowsers?: RememberedBrowsers | undefined;
  /** Browsers that completed a sign-in with a second factor: their own 2FA counter (issue 39). */
  secondFactorBrowsers?: KnownBrowsers | undefined;
  /** "Remember this browser" once a sign-in that asked for it completes (the partner's rule applies there). */
  onRememberBrowser?: ((browser: Browser, user: User) => Promise<void>) | undefined;
  /** Mails the account a way in added during the sign-in (a `Link`, issue 48). */
  announceWayIn?: AnnounceWayIn | undefined;
}
