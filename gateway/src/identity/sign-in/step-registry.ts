import type { PendingSignIn } from '../../infra/sessions/session-store.js';
import type { User } from '../../store/user.repository.js';

/** What a step sees when deciding whether it applies to a pending sign-in. */
export interface StepContext {
  user: User;
  pending: PendingSignIn;
  now: number;
}

/**
 * One step of the sign-in state machine (ARCHITECTURE.md "Sign-in is a server-side state machine"). Steps are
 * walked in registry order after the password; each that applies sends the browser to its page by 209, and its
 * own calls complete it via `SignInService.completeStep`.
 */
export interface SignInStep {
  /** Stable id, recorded in `pending.passed` once done. */
  id: string;
  /** The page the browser is sent to (a route of the route table). */
  path: string;
  /** Whether this sign-in must pass the step. */
  appliesTo(context: StepContext): boolean | Promise<boolean>;
  /** Account API call names (case-insensitive, e.g. "ChangeExpiredPassword") usable while this step is pending. */
  calls: readonly string[];
}

/** Ordered list of sign-in steps; later issues register theirs without touching Login. */
export class SignInStepRegistry {
  private readonly steps: SignInStep[] = [];

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

  /** The step owning an account API call name, if any. */
  ownerOfCall(call: string): SignInStep | undefined {
    const wanted = call.toLowerCase();
    return this.steps.find((s) => s.calls.some((c) => c.toLowerCase() === wanted));
  }
}

/**
 * Expired password → the change page (S3: while it is pending only its call works). The page's call,
 * `ChangeExpiredPassword`, arrives with issue 5's recovery flows.
 */
export const expiredPasswordStep: SignInStep = {
  id: 'expired-password',
  path: '/account/change-expired-password',
  appliesTo: ({ user, now }) => user.passwordExpiresAt !== null && user.passwordExpiresAt <= now,
  calls: ['ChangeExpiredPassword', 'PasswordRules'],
};

/**
 * Second factor required by an administrator → the 2FA page (S20). Its calls (LoginWith2FA, recovery codes, PIN,
 * SMS) arrive with the MFA issue; setup of a first factor goes through the same step.
 */
export const twoFactorStep: SignInStep = {
  id: 'two-factor',
  path: '/account/login/twofactor',
  appliesTo: ({ user }) => user.requiresTwoFactor,
  calls: [
    'LoginWith2FAView',
    'LoginWith2FA',
    'LoginWithRecoveryCodeView',
    'LoginWithRecoveryCode',
    'PinReference',
    'GeneratePin',
    'SendOTP',
    'Setup2FAView',
    'Validate2faSetupCode',
    'GeneratePhoneVerification',
    'EnableTwoFactor',
  ],
};

/** The registry with the steps of this issue: expired password, then second factor. */
export function defaultSignInSteps(): SignInStepRegistry {
  return new SignInStepRegistry().register(expiredPasswordStep).register(twoFactorStep);
}
