import type { SecurityCentreView } from 'shared-contracts';
import type { Store } from '../../../store/store.js';
import type { User } from '../../../store/user.repository.js';
import type { TwoFactorService } from '../../two-factor/two-factor.service.js';
import type { ChangeOutcome, SecurityCentreActor, SecurityCentreContext } from './context.js';
import { vendorCredentialsOnly } from './vendor-account.js';

/** The recovery codes: how many are left, and a new set when asked (ADR 0046). */
export function recoveryCodesPart(options: {
  centre: SecurityCentreContext;
  store: Pick<Store, 'recoveryCodes'>;
  twoFactor: Pick<TwoFactorService, 'regenerateRecoveryCodes'>;
}) {
  const { centre, store, twoFactor } = options;
  return {
    /** `SecurityCentreView.recoveryCodes`. */
    view: async (user: User): Promise<SecurityCentreView['recoveryCodes']> => {
      return { remaining: await store.recoveryCodes.remaining(user.id) };
    },

    /** `RegenerateRecoveryCodes`: a new set (the old one dies), answered once. */
    regenerate: (actor: SecurityCentreActor): Promise<ChangeOutcome<string[]>> => {
      if (actor.user.vendorId) return Promise.resolve(vendorCredentialsOnly());
      return centre.change<string[]>(
        actor,
        async () => {
          const codes = await twoFactor.regenerateRecoveryCodes(actor.user.id, actor.amr);
          return codes ? { kind: 'done', value: codes } : { kind: 'notFound' };
        },
        // two-factor.service records `two-factor.recovery-codes-regenerated` itself, and mails the account the new
        // way in with its browser (`sign-in-method-added`, ADR 0042) in place of the `recovery-codes` notice.
        { kind: 'security-centre.recovery-codes', mail: undefined },
      );
    },
  };
}
