import { DEVICE_OFFER_SKIP_DAYS } from 'shared-contracts';
import { defineStep, StepId } from '../sign-in/sign-in-step.js';

/** A skipped passkey offer stays quiet this long (SkipFido; "ask again after 30 days at most"). */
export const PASSKEY_OFFER_QUIET_MS = DEVICE_OFFER_SKIP_DAYS * 24 * 3_600_000;

/**
 * No passkey yet → offer to register one (register, or SkipFido), once per sign-in and never again within
 * {@link PASSKEY_OFFER_QUIET_MS} of a skip. Only browsers that said at Login they have a user-verifying platform
 * authenticator are offered it (ADR 0016): elsewhere the page would have nothing to register with.
 */
export const passkeyOfferStep = defineStep({
  id: StepId.passkeyOffer,
  path: '/account/registerdevice',
  appliesTo: async ({ user, pending, now, facts }) => {
    // A vendor account registers no passkey of its own (ADR 0041).
    if (user.vendorId) return false;
    if (pending.platformAuthenticator !== true) return false;
    if (await facts.hasDevice(user.id)) return false;
    const skippedAt = await facts.passkeyOfferSkippedAt?.(user.id);
    return skippedAt === undefined || now - skippedAt >= PASSKEY_OFFER_QUIET_MS || now < skippedAt;
  },
  calls: ['CredentialOptions', 'RegisterCredential', 'SkipFido'],
});
