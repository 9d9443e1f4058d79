import { codeDelivery } from './code-delivery.service.js';
import { recoveryCodeSets } from './recovery-code-sets.service.js';
import { secondFactorCheck } from './second-factor-check.service.js';
import { twoFactorContext, type TwoFactorServiceDeps } from './two-factor-context.js';
import { twoFactorSetup } from './two-factor-setup.service.js';

export * from './two-factor-context.js';

/**
 * The second factor (SPEC.md §7 "Two-factor and codes", ADR 0008): the authenticator app (TOTP), SMS, the mailed
 * PIN and recovery codes, at sign-in and in the set-up wizard. HTTP-free; the routers map outcomes to the protocol.
 * One file per job: the sign-in check (`second-factor-check.service.ts`), the set-up wizard
 * (`two-factor-setup.service.ts`), code delivery (`code-delivery.service.ts`), recovery codes
 * (`recovery-code-sets.service.ts`); what they share is in `two-factor-context.ts`.
 */
export function createTwoFactorService(deps: TwoFactorServiceDeps) {
  const ctx = twoFactorContext(deps);
  const { newRecoveryCodeSet: _internal, ...codes } = recoveryCodeSets(ctx);
  return {
    methodsOf: ctx.methodsOf,
    ...secondFactorCheck(ctx),
    ...codeDelivery(ctx),
    ...codes,
    ...twoFactorSetup(ctx, { newRecoveryCodeSet: _internal }),
  };
}

/** The second-factor service. */
export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
