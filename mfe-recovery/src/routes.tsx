import type { RemoteRoute } from 'shared-contracts';

/** The pages of mfe-recovery, keyed by their paths in the route table; each page's code loads on first use. */
export const routes: readonly RemoteRoute[] = [
  {
    path: '/account/recover',
    lazy: () => import('./features/recover/recover-page').then((m) => ({ Component: m.RecoverPage })),
  },
  {
    path: '/account/reset-password',
    lazy: () =>
      import('./features/reset-password/reset-password-page').then((m) => ({
        Component: m.ResetPasswordPage,
      })),
  },
  {
    path: '/account/change-expired-password',
    lazy: () =>
      import('./features/change-expired-password/change-expired-password-page').then((m) => ({
        Component: m.ChangeExpiredPasswordPage,
      })),
  },
];
