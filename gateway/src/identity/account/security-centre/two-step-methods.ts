import type { SecurityCentreView, TwoFactorMethod, TwoStepMethod } from 'shared-contracts';
import { removeSecondFactorMethod, setPreferredSecondFactor } from '../../../store/second-factor-methods.js';
import type { Store } from '../../../store/store.js';
import type { User } from '../../../store/user.repository.js';
import type { TwoFactorService } from '../../two-factor/two-factor.service.js';
import type { ChangeOutcome, SecurityCentreActor, SecurityCentreContext } from './context.js';

/** The phone number with all but its last three digits hidden. */
function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `•••• ${digits.slice(-3)}`;
}

/**
 * The two-step methods (ADR 0050): listed with the default first, one removed, the default chosen. Adding one is the
 * set-up wizard's (`two-factor/two-factor-setup.service.ts`).
 */
export function twoStepMethodsPart(options: {
  centre: SecurityCentreContext;
  store: Pick<Store, 'partners' | 'secondFactors' | 'recoveryCodes' | 'database'>;
  twoFactor: Pick<TwoFactorService, 'methodsOf'>;
}) {
  const { centre, store, twoFactor } = options;

  /** The account or its partner requires two-step verification: the last method cannot be removed. */
  async function required(user: User): Promise<boolean> {
    if (user.requiresTwoFactor) return true;
    if (!user.partnerId) return false;
    return (await store.partners.findById(user.partnerId))?.requireTwoFactor ?? false;
  }

  async function methodsOf(user: User): Promise<TwoStepMethod[]> {
    const methods = await twoFactor.methodsOf(user.id, user);
    const factor = await store.secondFactors.find(user.id);
    return methods.map((method, index) => ({
      method,
      // methodsOf puts the preferred method first.
      isDefault: index === 0,
      ...(method === 'sms' && factor?.smsPhone ? { detail: maskPhone(factor.smsPhone) } : {}),
      ...(method === 'pin' && user.email ? { detail: user.email } : {}),
    }));
  }

  return {
    /** `SecurityCentreView.twoStep`. */
    view: async (user: User): Promise<SecurityCentreView['twoStep']> => {
      return { methods: await methodsOf(user), required: await required(user) };
    },

    /** `RemoveTwoStepMethod`: refused for the last method when two-step verification is required. */
    remove: (actor: SecurityCentreActor, method: TwoFactorMethod): Promise<ChangeOutcome> => {
      return centre.change(
        actor,
        async () => {
          const methods = await twoFactor.methodsOf(actor.user.id, actor.user);
          if (!methods.includes(method)) return { kind: 'notFound' };
          const rest = methods.filter((m) => m !== method);
          if (rest.length === 0 && (await required(actor.user)))
            return { kind: 'invalid', errors: { '': ['lastTwoStepMethodRequired'] } };
          if (rest.length === 0) {
            // No second factor left: the recovery codes that stood in for it go too.
            await store.secondFactors.disable(actor.user.id);
            await store.recoveryCodes.replace(actor.user.id, []);
          } else {
            await removeSecondFactorMethod(store.database.db, actor.user.id, method, rest[0]!, centre.now());
          }
          return { kind: 'done' };
        },
        { kind: 'two-factor.method-removed', mail: 'two-step-removed', data: { method } },
      );
    },

    /** `SetDefaultTwoStepMethod`: the method the sign-in asks for first. */
    setDefault: (actor: SecurityCentreActor, method: TwoFactorMethod): Promise<ChangeOutcome> => {
      return centre.change(
        actor,
        async () => {
          const methods = await twoFactor.methodsOf(actor.user.id, actor.user);
          if (!methods.includes(method)) return { kind: 'notFound' };
          await setPreferredSecondFactor(store.database.db, actor.user.id, method, centre.now());
          return { kind: 'done' };
        },
        { kind: 'two-factor.default-changed', mail: 'two-step-default', data: { method } },
      );
    },
  };
}
