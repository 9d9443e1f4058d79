import type { SecurityCentreView } from 'shared-contracts';
import type { Store } from '../../../store/store.js';
import type { User } from '../../../store/user.repository.js';
import type { FieldErrors } from './context.js';

/**
 * A vendor account's answer to a change that would give it a credential of its own (ADR 0041): its password and
 * two-step verification are managed at its provider. 400 like the centre's other refusals of a rule.
 */
export const vendorCredentialsOnly = (): { kind: 'invalid'; errors: FieldErrors } => ({
  kind: 'invalid',
  errors: { '': ['vendorCredentialsOnly'] },
});

/** The vendor account's part of the view (ADR 0041): the provider it signs in through, by name. */
export function vendorAccountPart(options: { store: Pick<Store, 'identityProviders'> }) {
  const { store } = options;
  return {
    /** `SecurityCentreView.vendorAccount`: present for a vendor account only. */
    view: async (user: User): Promise<SecurityCentreView['vendorAccount']> => {
      if (!user.vendorId) return undefined;
      return { provider: (await store.identityProviders.findById(user.vendorId))?.name ?? user.vendorId };
    },
  };
}
