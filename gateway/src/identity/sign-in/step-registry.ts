import { customerSelectionStep } from '../customers/customer-selection.step.js';
import { twoFactorSetupStep } from '../two-factor/two-factor-setup.step.js';
import { twoFactorStep } from '../two-factor/two-factor.step.js';
import { expiredPasswordStep } from '../recovery/expired-password.step.js';
import { passkeyOfferStep } from '../passkeys/passkey-offer.step.js';
import { CALLS_OUTSIDE_SIGN_IN, FORMER_STEP_IDS, type SignInStep, type StepId } from './sign-in-step.js';

/** Ordered list of sign-in steps; a flow registers its step without touching Login. */
export class SignInStepRegistry {
  private readonly steps: SignInStep[] = [];
  private readonly outside = new Set(CALLS_OUTSIDE_SIGN_IN.map((c) => c.toLowerCase()));

  /** Adds a step at the end, or before/after the step with the given id. */
  register(step: SignInStep, position: { before?: StepId; after?: StepId } = {}): this {
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

  /** The step with this id, or with the id it had before (a pending sign-in stored before a rename). */
  find(id: string): SignInStep | undefined {
    const wanted = FORMER_STEP_IDS[id] ?? id;
    return this.steps.find((s) => s.id === wanted);
  }

  /** Whether `call` may be answered while a sign-in waits at `stepId` (deny by default). */
  allows(stepId: string, call: string): boolean {
    const wanted = call.toLowerCase();
    if (this.outside.has(wanted)) return true;
    return this.find(stepId)?.calls.some((c) => c.toLowerCase() === wanted) ?? false;
  }
}

/** Switches for steps that can be turned off: registered in order, applying only when switched on. */
export interface StepSwitches {
  /** Offer to register a passkey to users without one (the devices flow); on unless switched off. */
  offerDeviceRegistration?: boolean;
  /** Ask users with more than one customer which one to work in (the tenant flow); on unless switched off. */
  selectCustomer?: boolean;
}

/** The step as declared when `enabled`, else the same step that never applies (its calls stay its own). */
function switched<S extends SignInStep>(step: S, enabled: boolean): S {
  return enabled ? step : { ...step, appliesTo: () => false };
}

/**
 * Every step ARCHITECTURE.md names, in its order: (password) → expired password → second factor, or its set-up
 * when required → passkey offer → customer selection → done.
 */
export function defaultSignInSteps(switches: StepSwitches = {}): SignInStepRegistry {
  return new SignInStepRegistry()
    .register(expiredPasswordStep)
    .register(twoFactorStep)
    .register(twoFactorSetupStep)
    .register(switched(passkeyOfferStep, switches.offerDeviceRegistration ?? true))
    .register(switched(customerSelectionStep, switches.selectCustomer ?? true));
}
