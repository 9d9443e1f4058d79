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
