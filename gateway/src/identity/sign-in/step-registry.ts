import { DEVICE_OFFER_SKIP_DAYS } from 'shared-contracts';
import type { PendingSignIn } from '../../infra/sessions/session-store.js';
import type { User } from '../../store/user.repository.js';

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
  /** When the user last skipped the device offer (SkipFido), or undefined. */
  deviceOfferSkippedAt?(userId: string): Promise<number | undefined>;
}

/** What a step sees when deciding whether it applies to a pending sign-in. */
export interface StepContext {
  user: User;
  pending: PendingSignIn;
  now: number;
  facts: SignInFacts;
}

/**
 * One step of the sign-in state machine (ARCHITECTURE.md "Sign-in is a server-side state machine", ADR 0005).
 * Steps are walked in registry order after the password; each that applies sends the browser to its page by 209,
 * and its own calls complete it via `SignInService.completeStep`.
 */
export interface SignInStep {
  /** Stable id, recorded in `pending.passed` once done. */
  id: string;
  /** The page the browser is sent to (a route of the route table); `User` reports it as `signInStep`. */
  path: string;
  /** Whether this sign-in must pass the step. */
  appliesTo(context: StepContext): boolean | Promise<boolean>;
  /**
   * Account API calls (case-insensitive) this step's pages use. While a sign-in waits at this step, these and
   * {@link CALLS_OUTSIDE_SIGN_IN} are the only calls answered: everything else is refused (deny by default, S3, S20).
   */
  calls: readonly string[];
}

/**
 * Calls that are not part of any step and stay usable while a sign-in is pending: the session plumbing, the page
 * chrome (partner, language, status, error references), starting over (LoginView, Login) and signing out.
 */
export const CALLS_OUTSIDE_SIGN_IN: readonly string[] = [
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
  // So does a one-time-token sign-in (ADR 0019). SendOTP without a username is still only the 2FA step's SMS.
  'SendOTP',
  'LoginWithOTT',
  // An upstream sign-in starts over too (ADR 0018); its callback forgets any pending sign-in.
  'VendorLoginView',
  'VendorLogin',
];

/** Ordered list of sign-in steps; a flow registers its step without touching Login. */
export class SignInStepRegistry {
  private readonly steps: SignInStep[] = [];
  private readonly outside = new Set(CALLS_OUTSIDE_SIGN_IN.map((c) => c.toLowerCase()));

  /** Adds a step at the end, or before/after the step with the given id. */
  register(step: SignInStep, position: { before?: string; after?: string } = {}): this {
    if (this.steps.some((s) => s.id === step.id))
      throw new Error(`sign-in step ${step.id} is already registered`);
    const anchor = position.before ?? position.after;
    const index = anchor === undefined ? -1 : this.steps.findIndex((s) => s.id === anchor);
    if (anchor !== undefined && index === -1) throw new Error(`sign-in step ${anchor} is not registered`);
    if (index === -1) this.steps.push(step);
    else this.steps.splice(position.before !== undefined ? index : index + 1, 0, step);
    return this;
  }

  list(): readonly SignInStep[] {
    return this.steps;
  }

  find(id: string): SignInStep | undefined {
    return this.steps.find((s) => s.id === id);
  }

  /** Whether `call` may be answered while a sign-in waits at `stepId` (deny by default). */
  allows(stepId: string, call: string): boolean {
    const wanted = call.toLowerCase();
    if (this.outside.has(wanted)) return true;
    return this.find(stepId)?.calls.some((c) => c.toLowerCase() === wanted) ?? false;
  }
}

/** A day in milliseconds (password ages are counted in days). */
const DAY_MS = 86_400_000;

/**
 * Expired password → the change page; while it is pending only its call works (S3). A password has expired when its
 * own expiry has passed (`expire-password`, or the age policy when it was set) or when it is older than the
 * partner's maximum age now (a policy set or shortened after the password was chosen applies at once).
 */
export const expiredPasswordStep: SignInStep = {
  id: 'expired-password',
  path: '/account/change-expired-password',
  appliesTo: async ({ user, now, facts }) => {
    if (user.passwordExpiresAt !== null && user.passwordExpiresAt <= now) return true;
    if (user.passwordHash === null || user.passwordChangedAt === null) return false;
    const maxAgeDays = (await facts.passwordMaxAgeDays?.(user)) ?? 0;
    return maxAgeDays > 0 && now - user.passwordChangedAt >= maxAgeDays * DAY_MS;
  },
  calls: ['ChangeExpiredPassword', 'PasswordRules'],
};

/** A confirmed second factor → the 2FA page (and its recovery-code page); only the 2FA calls work (S20). */
export const twoFactorStep: SignInStep = {
  id: 'two-factor',
  path: '/account/login/twofactor',
  // Not again right after the set-up wizard: its confirmation code already proved the new factor.
  appliesTo: async ({ user, pending, facts }) =>
    !pending.passed.includes('two-factor-setup') &&
    pending.secondFactorRemembered !== true &&
    (await facts.hasSecondFactor(user.id)),
  calls: [
    'LoginWith2FAView',
    'LoginWith2FA',
    'LoginWithRecoveryCodeView',
    'LoginWithRecoveryCode',
    'SendOTP',
    'PinReference',
    'GeneratePin',
  ],
};

/** 2FA required (by an administrator) but none set up yet → the set-up wizard before the sign-in finishes. */
export const twoFactorSetupStep: SignInStep = {
  id: 'two-factor-setup',
  path: '/account/setup-twofactor',
  appliesTo: async ({ user, facts }) =>
    (user.requiresTwoFactor || ((await facts.partnerRequiresTwoFactor?.(user)) ?? false)) &&
    !(await facts.hasSecondFactor(user.id)),
  calls: [
    'Setup2FAView',
    'Validate2faSetupCode',
    'GeneratePhoneVerification',
    'GeneratePin',
    'PinReference',
    'EnableTwoFactor',
    'RedeemRecoveryCode',
    'RedeemState',
  ],
};

/** Switches for steps that can be turned off: registered in order, applying only when switched on. */
export interface StepSwitches {
  /** Offer to register a passkey to users without one (the devices flow); on unless switched off. */
  offerDeviceRegistration?: boolean;
  /** Ask users with more than one customer which one to work in (the tenant flow); on unless switched off. */
  selectCustomer?: boolean;
}

/** A skipped device offer stays quiet this long (SkipFido; "ask again after 30 days at most"). */
export const DEVICE_OFFER_QUIET_MS = DEVICE_OFFER_SKIP_DAYS * 24 * 3_600_000;

/**
 * No passkey yet → offer to register one (register, or SkipFido), once per sign-in and never again within
 * {@link DEVICE_OFFER_QUIET_MS} of a skip. Only browsers that said at Login they have a user-verifying platform
 * authenticator are offered it (ADR 0016): elsewhere the page would have nothing to register with.
 */
export function deviceOfferStep(enabled: boolean): SignInStep {
  return {
    id: 'device-offer',
    path: '/account/registerdevice',
    appliesTo: async ({ user, pending, now, facts }) => {
      if (!enabled || pending.platformAuthenticator !== true) return false;
      if (await facts.hasDevice(user.id)) return false;
      const skippedAt = await facts.deviceOfferSkippedAt?.(user.id);
      return skippedAt === undefined || now - skippedAt >= DEVICE_OFFER_QUIET_MS || now < skippedAt;
    },
    calls: ['CredentialOptions', 'RegisterCredential', 'SkipFido'],
  };
}

/** More than one customer → choose one; the choice goes into the session and the tokens. */
export function customerSelectionStep(enabled: boolean): SignInStep {
  return {
    id: 'customer-selection',
    path: '/account/select',
    appliesTo: async ({ user, facts }) => enabled && (await facts.customerCount(user.id)) > 1,
    calls: ['SelectCustomerView', 'Customers', 'SelectCustomer'],
  };
}

/**
 * Every step ARCHITECTURE.md names, in its order: (password) → expired password → second factor, or its set-up
 * when required → device offer → customer selection → done.
 */
export function defaultSignInSteps(switches: StepSwitches = {}): SignInStepRegistry {
  return new SignInStepRegistry()
    .register(expiredPasswordStep)
    .register(twoFactorStep)
    .register(twoFactorSetupStep)
    .register(deviceOfferStep(switches.offerDeviceRegistration ?? true))
    .register(customerSelectionStep(switches.selectCustomer ?? true));
}
