import type { ConsoleRole } from 'shared-contracts/console';
import type { RoleName } from '../../store/roles.js';
import type { Store } from '../../store/store.js';
import { recoveryCodeHash } from '../two-factor/recovery-codes.js';
import { totpUri } from '../two-factor/totp.service.js';
import { hashPassword, verifyPassword } from '../passwords/passwords.service.js';

/** The password of every demo user. */
export const DEMO_PASSWORD = 'Demo-Password-1!';

/** The demo users: one per interesting state. */
export const DEMO_USERS: readonly {
  username: string;
  displayName: string;
  roles: RoleName[];
  expired?: boolean;
  requiresTwoFactor?: boolean;
  disabled?: boolean;
  /** Has an authenticator app set up with {@link DEMO_TOTP_SECRET}. */
  authenticator?: boolean;
  /** Holds this console grant (ADR 0058); with the authenticator app, it can use the console at once. */
  console?: ConsoleRole;
}[] = [
  { username: 'employee', displayName: 'Emma Employee', roles: ['EMPLOYEE'] },
  { username: 'manager', displayName: 'Max Manager', roles: ['EMPLOYEE', 'MANAGER'] },
  { username: 'hradmin', displayName: 'Hanna HR-Admin', roles: ['HR_ADMIN', 'ADMIN'] },
  { username: 'expired', displayName: 'Eddie Expired', roles: ['EMPLOYEE'], expired: true },
  { username: 'twofactor', displayName: 'Tara Twofactor', roles: ['EMPLOYEE'], requiresTwoFactor: true },
  { username: 'disabled', displayName: 'Dana Disabled', roles: ['EMPLOYEE'], disabled: true },
  { username: 'authenticator', displayName: 'Alex Authenticator', roles: ['EMPLOYEE'], authenticator: true },
  {
    username: 'platformadmin',
    displayName: 'Pat Platform-Admin',
    roles: ['EMPLOYEE'],
    authenticator: true,
    console: 'platformAdmin',
  },
  {
    username: 'releasemanager',
    displayName: 'Rey Release-Manager',
    roles: ['EMPLOYEE'],
    authenticator: true,
    console: 'releaseManager',
  },
];

/**
 * The authenticator secret of the demo user `authenticator`, printed at first start so a person trying the demo
 * can add it to an app. Public on purpose, like {@link DEMO_PASSWORD}: demo data only, never a real account.
 */
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const DEMO_PARTNER_NAME = 'Acme Payroll';

/**
 * The recovery codes of the demo users with an authenticator app (`authenticator`, and the console's `platformadmin`
 * and `releasemanager`; ten, as a real set: `RECOVERY_CODE_COUNT`), so "Use a
 * recovery code" and the security centre's recovery-code card can be tried on the demo. Grouped as shown; public on
 * purpose, like {@link DEMO_TOTP_SECRET}. Each works once (S19), until the seed runs again on an empty store.
 */
export const DEMO_RECOVERY_CODES: readonly string[] = Array.from(
  { length: 10 },
  (_, i) => `RECV-2026-${String(i + 1).padStart(4, '0')}`,
);

/** Where the demo portal runs (examples/payroll-portal). */
export const DEMO_PORTAL_URL = 'http://localhost:4000';

/**
 * The demo users that still sign in with the published {@link DEMO_PASSWORD}: on a deployment, each is an open
 * door (issue 39). One lookup and one hash check per demo name, at start only.
 */
export async function demoAccountsPresent(store: Store): Promise<string[]> {
  const open: string[] = [];
  for (const demo of DEMO_USERS) {
    const user = await store.users.findByLogin(demo.username);
    if (user?.passwordHash && !user.disabled && (await verifyPassword(user.passwordHash, DEMO_PASSWORD)))
      open.push(demo.username);
  }
  return open;
}

/**
 * Seeds the demo data on first start (an empty users table): partner `demo`, two customers, the demo users and
 * the `payroll-portal` client. Returns false when the store already had users.
 */
export async function seedDemoData(store: Store, now: () => number = Date.now): Promise<boolean> {
  if ((await store.users.count()) > 0) return false;
  if (!(await store.partners.findById('demo'))) {
    await store.partners.create({
      id: 'demo',
      name: DEMO_PARTNER_NAME,
      domains: ['localhost', '127.0.0.1'],
      backgroundColor: '#1f4e79',
      privacyPolicyUrl: 'https://example.com/privacy',
      defaultLanguage: 'en-GB',
      availableLanguages: [
        { name: 'en-GB', description: 'English (United Kingdom)' },
        { name: 'en', description: 'English (United States)' },
        { name: 'de', description: 'Deutsch' },
        { name: 'fr-CA', description: 'Français (Canada)' },
        { name: 'es', description: 'Español' },
      ],
      showLanguageOptions: true,
      isDefault: true,
    });
  }
  for (const customer of [
    { id: 'acme-retail', name: 'Acme Retail Ltd', partnerId: 'demo' },
    { id: 'acme-logistics', name: 'Acme Logistics GmbH', partnerId: 'demo' },
  ]) {
    if (!(await store.customers.findById(customer.id))) await store.customers.create(customer);
  }
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const demo of DEMO_USERS) {
    const user = await store.users.create({
      username: demo.username,
      email: `${demo.username}@demo.test`,
      displayName: demo.displayName,
      passwordHash,
      roles: demo.roles,
      partnerId: 'demo',
      passwordExpiresAt: demo.expired ? now() - 24 * 3_600_000 : null,
      requiresTwoFactor: demo.requiresTwoFactor ?? false,
      disabled: demo.disabled ?? false,
    });
    await store.customers.addMembership({ userId: user.id, customerId: 'acme-retail', roles: demo.roles });
    if (demo.authenticator) {
      await store.secondFactors.enableAuthenticator(user.id, store.secrets.encrypt(DEMO_TOTP_SECRET), 0);
      // Kept as any set is (S19: hashed with the user id, normalised without separators).
      await store.recoveryCodes.replace(
        user.id,
        DEMO_RECOVERY_CODES.map((code) => recoveryCodeHash(user.id, code.replaceAll('-', ''))),
      );
    }
    if (demo.console)
      await store.consoleGrants.add({
        userId: user.id,
        role: demo.console,
        partnerId: null,
        customerId: null,
        grantedBy: 'demo data',
      });
    if (demo.username === 'manager' || demo.username === 'hradmin') {
      await store.customers.addMembership({
        userId: user.id,
        customerId: 'acme-logistics',
        roles: demo.roles,
      });
    }
  }
  if (!(await store.clients.findById('payroll-portal'))) {
    await store.clients.create({
      clientId: 'payroll-portal',
      name: 'Payroll portal',
      redirectUris: [`${DEMO_PORTAL_URL}/callback`],
      postLogoutRedirectUris: [`${DEMO_PORTAL_URL}/`],
      backchannelLogoutUri: `${DEMO_PORTAL_URL}/backchannel-logout`,
      initiateLoginUri: `${DEMO_PORTAL_URL}/login`,
      firstParty: true,
    });
  }
  return true;
}

/** The lines printed after seeding: where to sign in, and as whom. */
export function demoSignInHelp(publicUrl: string): string[] {
  return [
    `Sign-in site: ${publicUrl}/account/login`,
    // The portal's ISSUER defaults to http://localhost:8080; say it when this gateway is elsewhere.
    `Demo portal:  ${DEMO_PORTAL_URL}/ (in another terminal: ${publicUrl === 'http://localhost:8080' ? '' : `ISSUER=${publicUrl} `}npm start -w payroll-portal)`,
    `Demo users (password ${DEMO_PASSWORD}): ${DEMO_USERS.map((u) => `${u.username}${u.expired ? ' (expired password)' : ''}${u.requiresTwoFactor ? ' (2FA required)' : ''}${u.disabled ? ' (disabled)' : ''}`).join(', ')}`,
    `E-mail works as username too, e.g. employee@demo.test`,
    `User "authenticator" signs in with an authenticator app: add the secret ${DEMO_TOTP_SECRET} (TOTP, SHA-1, 6 digits, 30 s) or this URI to the app:`,
    `  ${totpUri(DEMO_TOTP_SECRET, DEMO_PARTNER_NAME, 'authenticator')}`,
    `User "authenticator" has recovery codes too, each good once: ${DEMO_RECOVERY_CODES.join(', ')}`,
    `Users ${DEMO_USERS.filter((u) => u.console)
      .map((u) => `"${u.username}" (${u.console})`)
      .join(' and ')} use the console at ${publicUrl}/admin/ with the same authenticator secret`,
  ];
}
