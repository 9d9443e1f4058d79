import type { RemoteRoute } from 'shared-contracts';

/** The pages of mfe-devices, keyed by their paths in the route table; each page's code loads on first use. */
export const routes: readonly RemoteRoute[] = [
  {
    path: '/account/registerdevice',
    lazy: () =>
      import('./features/passkeys/register-device-page').then((m) => ({
        Component: m.RegisterDevicePage,
      })),
  },
  {
    path: '/account/login/secure',
    lazy: () =>
      import('./features/secure-sign-in/secure-sign-in-page').then((m) => ({ Component: m.SecureLoginPage })),
  },
];
