import type { RemoteRoute } from 'shared-contracts';

/** The pages of mfe-admin, keyed by their paths in the route table; each page's code loads on first use. */
export const routes: readonly RemoteRoute[] = [
  {
    path: '/admin',
    lazy: () => import('./features/console/admin-index-page').then((m) => ({ Component: m.AdminIndexPage })),
  },
  {
    path: '/admin/releases',
    lazy: () => import('./features/releases/releases-page').then((m) => ({ Component: m.ReleasesPage })),
  },
  {
    path: '/admin/people',
    lazy: () => import('./features/people/people-page').then((m) => ({ Component: m.PeoplePage })),
  },
  {
    path: '/admin/person',
    lazy: () => import('./features/people/person-page').then((m) => ({ Component: m.PersonPage })),
  },
];
