import type { RemoteRoute } from 'shared-contracts';

/** The e2e build variant (rspack.config.mjs): '' in every real build, undefined outside rspack (tests). */
declare const __MFE_LOGIN_E2E_VARIANT__: string | undefined;

/** The error the `broken` e2e build variant's pages throw while rendering. */
function BrokenPage(): never {
  throw new Error('mfe-login e2e build variant "broken": this page throws while rendering');
}

/** The pages of mfe-login, keyed by their paths in the route table; each page's code loads on first use. */
const pages: readonly RemoteRoute[] = [
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

/**
 * The routes the remote exposes: its pages, or in the `broken` e2e build variant (the canary guard's proof) the same
 * routes whose pages throw while rendering. Dead code in every real build: the define makes the test `'' === 'broken'`.
 */
export const routes: readonly RemoteRoute[] =
  typeof __MFE_LOGIN_E2E_VARIANT__ !== 'undefined' && __MFE_LOGIN_E2E_VARIANT__ === 'broken'
    ? pages.map((route) => ({
        ...route,
        lazy: async () => ({ ...(await route.lazy()), Component: BrokenPage }),
      }))
    : pages;
