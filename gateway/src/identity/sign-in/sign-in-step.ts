import type { PendingSignIn } from '../../infra/sessions/session-store.js';
import type { User } from '../../store/user.repository.js';

/**
 * The ids of the sign-in steps, declared once (issue 42). A step's own file declares it with its id; the state
 * machine and the entry kinds name a step through this object, so a misspelt id fails the type check.
 */
export const StepId = {
  expiredPassword: 'expired-password',
  twoFactor: 'two-factor',
  twoFactorSetup: 'two-factor-setup',
  passkeyOffer: 'passkey-offer',
  customerSelection: 'customer-selection',
} as const;

/** The id of one sign-in step. */
export type StepId = (typeof StepId)[keyof typeof StepId];

/**
 * Ids a step had before (ADR 0057 renamed `device-offer` to `passkey-offer`). A pending sign-in keeps the id of its
 * current step in the session store for up to PENDING_SIGN_IN_MS, so one started before a deployment may name the
 * old id: `SignInStepRegistry.find` reads it as the new one, and the sign-in goes on where it was.
 */
export const FORMER_STEP_IDS: Readonly<Record<string, StepId>> = { 'device-offer': StepId.passkeyOffer };

/** What `pending.passed` records: the first factor ("password", whatever proved it) and the steps passed. */
export type PassedMark = 'password' | StepId;

/** Facts about the account that steps decide on, read from the store only when a step asks. */
export interface SignInFacts {
  /** The user has a confirmed second factor (authenticator, SMS or PIN). */
  hasSecondFactor(userId: string): Promise<boolean>;
  /** The user's partner requires a second factor of all its users (absent: no partner does). */
  partnerRequiresTwoFactor?(user: User): Promise<boolean>;
  /** The user has a registered passkey or security key. */
  hasDevice(userId: string): Promise<boolean>;
  /** How many customers the user belongs to. */
  customerCount(userId: string): Promise<number>;
  /** The maximum password age in days of the account's partner (0 = never; ADR 0010). */
  passwordMaxAgeDays?(user: User): Promise<number>;
  /** When the user last skipped the passkey offer (SkipFido), or undefined. */
  passkeyOfferSkippedAt?(userId: string): Promise<number | undefined>;
}

/** What a step sees when deciding whether it applies to a pending sign-in. */
export interface StepContext {
  user: User;
  pending: PendingSignIn;
  now: number;
  facts: SignInFacts;
}

/**
 * One step of the sign-in state machine (ARCHITECTURE.md "Sign-in is a server-side state machine", ADR 0005),
 * declared in its flow's folder (`identity/two-factor/two-factor.step.ts`, …). Steps are walked in registry order after
 * the password; each that applies sends the browser to its page by 209, and its own calls complete it via
 * `SignInService.completeStep`. The router that serves the step is built from this declaration
 * (`http/step-router.ts`): it answers exactly `calls`, so what the step allows and what serves it cannot drift.
 */
export interface SignInStep<Call extends string = string> {
  /** Stable id, recorded in `pending.passed` once done. */
  id: StepId;
  /** The page the browser is sent to (a route of the route table); `User` reports it as `signInStep`. */
  path: string;
  /** Whether this sign-in must pass the step. */
  appliesTo(context: StepContext): boolean | Promise<boolean>;
  /**
   * Account API calls (case-insensitive) this step's pages use. While a sign-in waits at this step, these and
   * {@link CALLS_OUTSIDE_SIGN_IN} are the only calls answered: everything else is refused (deny by default, S3, S20).
   */
  calls: readonly Call[];
}

/** Declares a step, keeping its calls as a literal union (the step's router must serve each, and no other). */
export function defineStep<const Call extends string>(step: SignInStep<Call>): SignInStep<Call> {
  return step;
}

/** The call names a step declares. */
export type CallOf<S> = S extends SignInStep<infer Call> ? Call : never;

/**
 * Calls that are not part of any step and stay usable while a sign-in is pending: the session plumbing, the page
 * chrome (partner, language, status, error references), starting over (LoginView, Login) and signing out.
 */
export const CALLS_OUTSIDE_SIGN_IN = [
  'Antiforgery',
  'Exchange',
  'User',
  'LoginView',
  'Login',
  'LocalAllowed',
  'IsRemoteAuthentication',
  'LogoutView',
  'Logout',
  // The idle sign-out ends whatever the session holds (ADR 0020). SilentLogin is not here: only a signed-in
  // session asks it, so a pending sign-in that does is refused and forgotten like any other stray call.
  'SilentLogout',
  'GetPartnerMetaData',
  'GetPartnerLogo',
  'SetLanguage',
  'SystemStatus',
  'Error',
  // A passkey sign-in starts over like Login does (ADR 0016).
  'AssertionOptions',
  'SecureLogin',
  // So does a one-time-token sign-in (ADR 0019). SendOTP without a username is the 2FA step's SMS resend: one
  // route answers both (http/one-time-token.router.ts), the resend only while a sign-in waits at that step.
  'SendOTP',
  'LoginWithOTT',
  // An upstream sign-in starts over too (ADR 0018); its callback forgets any pending sign-in.
  'VendorLoginView',
  'VendorLogin',
] as const;

/** The name of a call outside any step (its access is declared in `http/account-access.ts`). */
export type CallOutsideSignIn = (typeof CALLS_OUTSIDE_SIGN_IN)[number];
