import type { SecurityCentreView } from 'shared-contracts';
import type { Store } from '../../../store/store.js';
import type { User } from '../../../store/user.repository.js';

/** The customer chosen for this session, shown by the centre; switching is the customer picker's (mfe-tenant). */
export function customerPart(options: { store: Pick<Store, 'customers'> }) {
  const { store } = options;
  return {
    /** `SecurityCentreView.customer` and `canSwitchCustomer`. */
    view: async (
      user: User,
      customerId: string | undefined,
    ): Promise<Pick<SecurityCentreView, 'customer' | 'canSwitchCustomer'>> => {
      const customer = customerId ? await store.customers.findById(customerId) : undefined;
      return {
        customer: customer ? { id: customer.id, name: customer.name } : null,
        canSwitchCustomer: (await store.customers.countCustomersOf(user.id)) > 1,
      };
    },
  };
}
