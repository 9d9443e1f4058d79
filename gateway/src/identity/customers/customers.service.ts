import type { CustomerSummary, CustomersPage, SelectCustomerView } from 'shared-contracts';
import { systemClock, type Clock } from '../../infra/clock.js';
import type { Store } from '../../store/store.js';
import type { MemberCustomer } from '../../store/customer.repository.js';

/** What a search asks for (already validated by the shared schema). */
export interface CustomerSearch {
  filter?: string | undefined;
  page: number;
  size: number;
}

const summary = (c: MemberCustomer): CustomerSummary => ({ id: c.id, name: c.name });

/**
 * Customer (tenant) selection (ADR 0009): a user's customers, searched and paged in SQL; the choice is accepted only
 * for a customer the user belongs to (S37), and remembered so it is listed first next time.
 */
export function createCustomersService(
  store: Pick<Store, 'customers' | 'audit'>,
  clock: Clock = systemClock,
) {
  return {
    /**
     * `SelectCustomerView`: the customer to preselect — `cid` when the user belongs to it (otherwise ignored, with
     * nothing that tells whether such a customer exists), else the one already chosen in this session — and the
     * number of customers.
     */
    async view(
      userId: string,
      cid: string | undefined,
      current: string | undefined,
    ): Promise<Omit<SelectCustomerView, 'returnUrl'>> {
      const [asked, chosen, all] = await Promise.all([
        cid ? store.customers.membershipOf(userId, cid) : undefined,
        current ? store.customers.membershipOf(userId, current) : undefined,
        store.customers.countCustomersOf(userId),
      ]);
      const preselected = asked ?? chosen;
      return { preselected: preselected ? summary(preselected) : null, total: all };
    },

    /** `Customers`: one page of the user's customers matching the filter (a page past the end is empty). */
    async search(userId: string, query: CustomerSearch): Promise<CustomersPage> {
      // Page × size stays exact in a double (≤ 2^31 × 50), and an offset past the total costs one count only.
      const offset = (query.page - 1) * query.size;
      const found = await store.customers.searchCustomersOf(userId, {
        filter: query.filter,
        offset,
        limit: query.size,
      });
      return {
        customers: found.customers.map(summary),
        total: found.total,
        page: query.page,
        size: query.size,
      };
    },

    /**
     * `SelectCustomer`: the membership when the user belongs to `customerId` (recorded as the last used), else
     * undefined — a tampered id, a customer of someone else, or a membership removed since the list was shown (S37).
     */
    async choose(userId: string, customerId: string): Promise<CustomerSummary | undefined> {
      const membership = await store.customers.membershipOf(userId, customerId);
      if (!membership) {
        await store.audit.record({
          at: clock.now(),
          kind: 'customer.select.refused',
          userId,
          ip: null,
          data: { customerId: customerId.slice(0, 200) },
        });
        return undefined;
      }
      await store.customers.markSelected(userId, customerId);
      await store.audit.record({
        at: clock.now(),
        kind: 'customer.selected',
        userId,
        ip: null,
        data: { customerId },
      });
      return summary(membership);
    },

    /** How many customers the user belongs to (switching customer makes sense from two). */
    count: (userId: string) => store.customers.countCustomersOf(userId),
  };
}

/** The customers service. */
export type CustomersService = ReturnType<typeof createCustomersService>;
