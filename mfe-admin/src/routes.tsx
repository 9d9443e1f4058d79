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
  {
    path: '/admin/partners',
    lazy: () => import('./features/partners/partners-page').then((m) => ({ Component: m.PartnersPage })),
  },
  {
    path: '/admin/applications',
    lazy: () =>
      import('./features/applications/applications-page').then((m) => ({ Component: m.ApplicationsPage })),
  },
  {
    path: '/admin/grants',
    lazy: () => import('./features/grants/grants-page').then((m) => ({ Component: m.GrantsPage })),
  },
  {
    path: '/admin/audit',
    lazy: () => import('./features/audit/audit-page').then((m) => ({ Component: m.AuditPage })),
  },
  {
    path: '/admin/import',
    lazy: () => import('./features/import/import-page').then((m) => ({ Component: m.ImportPage })),
  },
];
