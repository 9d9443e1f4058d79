import type { RemoteRoute } from 'shared-contracts';

/** The pages of mfe-tenant, keyed by their paths in the route table; each page's code loads on first use. */
export const routes: readonly RemoteRoute[] = [
  {
    path: '/account/select',
    lazy: () =>
      import('./features/select-customer/select-customer-page').then((m) => ({
        Component: m.SelectCustomerPage,
      })),
  },
];
