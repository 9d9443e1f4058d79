/** The demo users the gateway seeds on first start (common ground; gateway seed). */
export const DEMO_PASSWORD = 'Demo-Password-1!';

/** A demo user: what is typed at sign-in, and the display name the site shows afterwards. */
export interface DemoUser {
  username: string;
  email: string;
  password: string;
}

/** Demo users by role in the tests. */
export const DEMO_USERS = {
  employee: { username: 'employee', email: 'employee@demo.test', password: DEMO_PASSWORD },
  expired: { username: 'expired', email: 'expired@demo.test', password: DEMO_PASSWORD },
  twofactor: { username: 'twofactor', email: 'twofactor@demo.test', password: DEMO_PASSWORD },
  authenticator: { username: 'authenticator', email: 'authenticator@demo.test', password: DEMO_PASSWORD },
} satisfies Record<string, DemoUser>;

/**
 * The demo user `authenticator`'s authenticator secret (gateway seed, DEMO_TOTP_SECRET), which the demo operators'
 * authenticator apps share.
 */
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

/** The demo operators of the console (issue 51): each signs in with a code from {@link DEMO_TOTP_SECRET}. */
export const CONSOLE_USERS = {
  platformadmin: { username: 'platformadmin', email: 'platformadmin@demo.test', password: DEMO_PASSWORD },
  releasemanager: { username: 'releasemanager', email: 'releasemanager@demo.test', password: DEMO_PASSWORD },
} satisfies Record<string, DemoUser>;
