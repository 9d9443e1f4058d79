/**
 * Samples of the Partners page's calls (issue 52, ADR 0062) for the access matrix. Only platform administrators
 * reach them (rows of scope 'all'): no out-of-scope requests. A let-through change sets the `demo` partner's idle
 * sign-out (nothing another try reads); a let-through logo upload without an image or partner answers the call's own 400 (the
 * matrix sends JSON, not an image), enough to show the guard let it through without storing anything.
 */
import type { ConsoleAreaSamples, ConsoleWorld } from './types.js';

const partnerData = (world: ConsoleWorld) => [world.partners.demo.name, world.partners.other.name];

export const samples = {
  ConsolePartners: {
    inScope: (world) => ({ method: 'GET', mustNotShow: partnerData(world) }),
  },
  ConsolePartner: {
    inScope: (world) => ({
      method: 'GET',
      query: { id: world.partners.other.id },
      mustNotShow: partnerData(world),
    }),
  },
  UpdatePartner: {
    inScope: (world) => ({
      method: 'POST',
      body: { id: world.partners.demo.id, idleSignOutMinutes: 0, reason: 'access matrix' },
      mustNotShow: partnerData(world),
    }),
  },
  UploadPartnerLogo: {
    // The matrix posts JSON (no image, no `?id=`): the call's own 400 once let through.
    inScope: () => ({ method: 'POST', body: {} }),
    allowed: [400],
  },
} satisfies ConsoleAreaSamples;
