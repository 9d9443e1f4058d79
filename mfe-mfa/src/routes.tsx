import type { RemoteRoute } from 'shared-contracts';

/** The pages of mfe-mfa, keyed by their paths in the route table; each page's code loads on first use. */
export const routes: readonly RemoteRoute[] = [
  {
    path: '/account/login/twofactor',
    lazy: () =>
      import('./features/two-factor/two-factor-page').then((m) => ({ Component: m.TwoFactorLoginPage })),
  },
  {
    path: '/account/login/recoverycode',
    lazy: () =>
      import('./features/use-recovery-code/use-recovery-code-page').then((m) => ({
        Component: m.UseRecoveryCodePage,
      })),
  },
  {
    path: '/account/setup-twofactor',
    lazy: () =>
      import('./features/setup-two-factor/setup-two-factor-page').then((m) => ({
        Component: m.SetupTwoFactorPage,
      })),
  },
  {
    path: '/account/redeem-recoverycodes',
    lazy: () =>
      import('./features/recovery-codes/recovery-codes-page').then((m) => ({
        Component: m.RedeemRecoveryCodesPage,
      })),
  },
];
