import type { Clock } from '../../infra/clock.js';
import type { KnownDevices } from '../../infra/throttle/known-devices.js';
import type { LoginThrottle } from '../../infra/throttle/login-throttle.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/user.repository.js';
import type { AnnounceWayIn } from '../account/ways-in.js';
import type { Browser, SessionWriter } from '../browser.js';
import type { RememberedBrowsers } from '../two-factor/remembered-browsers.js';
import { externalEntry } from './external-sign-in.js';
import { oneTimeTokenEntry } from './one-time-token-sign-in.js';
import { passkeyEntry } from './passkey-sign-in.js';
import { passwordEntry } from './password-sign-in.js';
import { pendingSignIns } from './pending-sign-ins.js';
import { silentEntry } from './silent-sign-in.js';
import { storeSignInFacts, type SignInContext, type SignInMetrics } from './sign-in-context.js';
import type { SignInFacts } from './sign-in-step.js';
import { signInWalk } from './sign-in-walk.js';
import type { SignInStepRegistry } from './step-registry.js';

export * from './sign-in-context.js';

/** The parts the service is made of, one file per job: each method named with the file it lives in. */
function signInParts(ctx: SignInContext) {
  const pending = pendingSignIns(ctx);
  const walk = signInWalk(ctx, pending);
  return {
    pendingState: pending.pendingState,
    isAtStep: pending.isAtStep,
    allowsCall: pending.allowsCall,
    abandon: pending.abandon,
    completeStep: walk.completeStep,
    passwordSignIn: passwordEntry(ctx, walk).passwordSignIn,
    deviceSignIn: passkeyEntry(ctx, walk).deviceSignIn,
    oneTimeTokenSignIn: oneTimeTokenEntry(ctx, walk).oneTimeTokenSignIn,
    externalSignIn: externalEntry(ctx, walk).externalSignIn,
    silentSignIn: silentEntry(ctx, walk).silentSignIn,
  };
}

/** What {@link SignInService} is built from: one options object, each part named. */
export interface SignInServiceOptions {
  store: Store;
  sessions: SessionWriter;
  throttle: LoginThrottle;
  steps: SignInStepRegistry;
  clock: Clock;
  metrics?: SignInMetrics | undefined;
  /** What the steps ask about an account; the store's answers unless given. */
  facts?: SignInFacts | undefined;
  /** Browsers where an account signed in before (S7); without it only known source addresses count. */
  knownDevices?: KnownDevices | undefined;
  /** Browsers remembered after a second factor (ADR 0008): their sign-ins skip the 2FA step. */
  rememberedBrowsers?: RememberedBrowsers | undefined;
  /** Browsers that completed a sign-in with a second factor: their own 2FA counter (issue 39). */
  secondFactorDevices?: KnownDevices | undefined;
  /** "Remember this browser" once a sign-in that asked for it completes (the partner's rule applies there). */
  onRememberBrowser?: ((browser: Browser, user: User) => Promise<void>) | undefined;
  /** Mails the account a way in added during the sign-in (a `Link`, issue 48). */
  announceWayIn?: AnnounceWayIn | undefined;
}

type Parts = ReturnType<typeof signInParts>;

/**
 * The sign-in state machine (ARCHITECTURE.md, ADR 0005): password first, then every registered step that applies,
 * then the returnUrl. The pending sign-in lives in the server session for at most {@link PENDING_SIGN_IN_MS}; the
 * session id is replaced when the password passes and again when the last step passes (S24). The session becomes
 * persistent (remember-me) only when the sign-in completes.
 *
 * One file per job (issue 42): the pending sign-in's state (`pending-sign-ins.ts`), the step walk
 * (`sign-in-walk.ts`, with the upstream link it writes at completion: `upstream-link.ts`), and one file per way in:
 * `password-sign-in.ts`, `passkey-sign-in.ts`, `one-time-token-sign-in.ts`, `external-sign-in.ts`,
 * `silent-sign-in.ts`; what they share is in `sign-in-context.ts`.
 */
export class SignInService {
  private readonly parts: Parts;

  readonly steps: SignInStepRegistry;

  constructor(options: SignInServiceOptions) {
    this.steps = options.steps;
    this.parts = signInParts({
      store: options.store,
      sessions: options.sessions,
      throttle: options.throttle,
      steps: options.steps,
      clock: options.clock,
      metrics: options.metrics ?? { signIn: () => undefined },
      facts: options.facts ?? storeSignInFacts(options.store),
      knownDevices: options.knownDevices,
      rememberedBrowsers: options.rememberedBrowsers,
      secondFactorDevices: options.secondFactorDevices,
      onRememberBrowser: options.onRememberBrowser,
      announceWayIn: options.announceWayIn,
    });
  }

  /** `Login` (`password-sign-in.ts`). */
  passwordSignIn(...args: Parameters<Parts['passwordSignIn']>): ReturnType<Parts['passwordSignIn']> {
    return this.parts.passwordSignIn(...args);
  }

  /** `SecureLogin`: a passkey (`passkey-sign-in.ts`). */
  deviceSignIn(...args: Parameters<Parts['deviceSignIn']>): ReturnType<Parts['deviceSignIn']> {
    return this.parts.deviceSignIn(...args);
  }

  /** `LoginWithOTT` (`one-time-token-sign-in.ts`). */
  oneTimeTokenSignIn(
    ...args: Parameters<Parts['oneTimeTokenSignIn']>
  ): ReturnType<Parts['oneTimeTokenSignIn']> {
    return this.parts.oneTimeTokenSignIn(...args);
  }

  /** An upstream sign-in (`external-sign-in.ts`). */
  externalSignIn(...args: Parameters<Parts['externalSignIn']>): ReturnType<Parts['externalSignIn']> {
    return this.parts.externalSignIn(...args);
  }

  /** Marks the current step passed and moves on (`sign-in-walk.ts`). */
  completeStep(...args: Parameters<Parts['completeStep']>): ReturnType<Parts['completeStep']> {
    return this.parts.completeStep(...args);
  }

  /** `SilentLogin` (`silent-sign-in.ts`). */
  silentSignIn(...args: Parameters<Parts['silentSignIn']>): ReturnType<Parts['silentSignIn']> {
    return this.parts.silentSignIn(...args);
  }

  /** Where the session's sign-in stands (`pending-sign-ins.ts`). */
  pendingState(...args: Parameters<Parts['pendingState']>): ReturnType<Parts['pendingState']> {
    return this.parts.pendingState(...args);
  }

  /** True when the session has a live pending sign-in waiting at `stepId`. */
  isAtStep(...args: Parameters<Parts['isAtStep']>): ReturnType<Parts['isAtStep']> {
    return this.parts.isAtStep(...args);
  }

  /** Whether `call` may be answered for this session. */
  allowsCall(...args: Parameters<Parts['allowsCall']>): ReturnType<Parts['allowsCall']> {
    return this.parts.allowsCall(...args);
  }

  /** Forgets the pending sign-in. */
  abandon(...args: Parameters<Parts['abandon']>): ReturnType<Parts['abandon']> {
    return this.parts.abandon(...args);
  }
}
