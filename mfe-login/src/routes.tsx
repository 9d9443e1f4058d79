import type { RemoteRoute } from 'shared-contracts';

/** The pages of mfe-login, keyed by their paths in the route table; each page's code loads on first use. */
export const routes: readonly RemoteRoute[] = [
  {
    path: '/account/login',
    lazy: () => import('./features/login/login-page').then((m) => ({ Component: m.LoginPage })),
  },
  {
    path: '/account/login/local',
    lazy: () => import('./features/login/login-page').then((m) => ({ Component: m.LocalLoginPage })),
  },
  {
    path: '/account/login/ott',
    lazy: () => import('./features/ott/ott-login-page').then((m) => ({ Component: m.OttLoginPage })),
  },
  {
    path: '/account/login/vendor',
    lazy: () =>
      import('./features/external/vendor-login-page').then((m) => ({ Component: m.VendorLoginPage })),
  },
  {
    path: '/account/link',
    lazy: () => import('./features/external/link-page').then((m) => ({ Component: m.LinkPage })),
  },
  {
    path: '/account/logout',
    lazy: () => import('./features/logout/logout-page').then((m) => ({ Component: m.LogoutPage })),
  },
  {
    path: '/account/logout/upstream',
    lazy: () =>
      import('./features/external/upstream-logout-page').then((m) => ({ Component: m.UpstreamLogoutPage })),
  },
  {
    path: '/account/loggedout',
    lazy: () => import('./features/logout/logged-out-page').then((m) => ({ Component: m.LoggedOutPage })),
  },
];
