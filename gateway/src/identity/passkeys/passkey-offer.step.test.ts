/** The passkey offer (ADR 0016) is never made to a vendor account (issue 48, ADR 0041: no passkey of its own). */
import { describe, expect, it } from 'vitest';
import type { StepContext } from '../sign-in/sign-in-step.js';
import { passkeyOfferStep } from './passkey-offer.step.js';

function contextFor(vendorId: string | undefined): StepContext {
  return {
    user: { id: 'u1', requiresTwoFactor: false, passwordExpiresAt: null, ...(vendorId ? { vendorId } : {}) },
    pending: { passed: [], platformAuthenticator: true },
    now: 0,
    facts: {
      hasSecondFactor: () => Promise.resolve(false),
      hasDevice: () => Promise.resolve(false),
      customerCount: () => Promise.resolve(1),
    },
  } as unknown as StepContext;
}

describe('the passkey offer', () => {
  it('S35 applies to an account without a passkey on a browser with a platform authenticator, never to a vendor account', async () => {
    expect(await passkeyOfferStep.appliesTo(contextFor(undefined))).toBe(true);
    expect(await passkeyOfferStep.appliesTo(contextFor('contoso'))).toBe(false);
  });
});
