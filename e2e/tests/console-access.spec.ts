/**
 * Who may use the operators' console (issue 51, ADR 0058), in Chromium against this worker's gateway: an employee
 * without grants, a support user (a grant for the demo partner) and a customer administrator (a grant for one
 * customer), each made with the admin CLI, get 403 on every release call, called from the page with the
 * anti-forgery header as the console calls them. The employee finds no "Administration" in the account menu; support
 * and the customer administrator find it for the People pages their grants give (issue 52). The demo release
 * manager reads the releases (the same call answers 200, so the refusals are the grants' doing) and sees only
 * Releases in the console's navigation; the demo platform administrator finds Administration, which opens the
 * console.
 */
import { expect, test, type Page } from '@playwright/test';
import { ROLE_PERMISSIONS } from 'shared-contracts/console';
import { addUser, runAdmin } from '../helpers/admin.js';
import {
  administrationEntry,
  consoleCall,
  releasesPage,
  signInWithCode,
  type CallAnswer,
} from '../helpers/console.js';
import { CONSOLE_USERS, DEMO_USERS, type DemoUser } from '../helpers/demo-users.js';
import { signIn } from '../helpers/sign-in.js';

/** A valid input of every release call (issue 51's console calls). */
const INPUT = {
  Releases: {},
  ReleaseHealth: { remote: 'mfe-login', window: '15m' },
  ReleaseHistory: { remote: 'mfe-login' },
  StartCanary: { remote: 'mfe-login', version: '0.1.0-0123456789', percent: 50 },
  EndCanary: { remote: 'mfe-login' },
  PromoteRelease: { remote: 'mfe-login', version: '0.1.0-0123456789' },
  RollBackRelease: { remote: 'mfe-login' },
  SetCanaryGuard: { remote: 'mfe-login', minPageLoads: 100, minFailureRate: 0.02, ratio: 2 },
} satisfies Record<string, Record<string, string | number>>;
const RELEASE_CALLS = Object.keys(INPUT) as (keyof typeof INPUT)[];

/** The error codes of a refusal's errors map (SPEC.md §4). */
const codesOf = (answer: CallAnswer) =>
  Object.values((answer.body as { errors?: Record<string, string[]> }).errors ?? {}).flat();

/** Signs `user` in with the password and opens the home page (the account menu is in its header). */
async function signedInAtHome(page: Page, user: DemoUser) {
  await signIn(page, user, { returnUrl: '/' });
  await expect(page.getByTestId('account-menu').getByRole('button')).toBeVisible();
}

const WITHOUT_RELEASES: { who: string; user: () => DemoUser; permissions: readonly string[] }[] = [
  { who: 'an employee without grants', user: () => DEMO_USERS.employee, permissions: [] },
  {
    who: 'a support user of the demo partner',
    user: () => {
      const user = addUser('support');
      runAdmin(['console', 'grant', user.username, '--role', 'support', '--partner', 'demo']);
      return user;
    },
    permissions: ROLE_PERMISSIONS.support,
  },
  {
    who: 'a customer administrator of Acme Retail',
    user: () => {
      const user = addUser('customer-admin');
      runAdmin(['console', 'grant', user.username, '--role', 'customerAdmin', '--customer', 'acme-retail']);
      return user;
    },
    permissions: ROLE_PERMISSIONS.customerAdmin,
  },
];

for (const { who, user, permissions } of WITHOUT_RELEASES) {
  const entry = permissions.length > 0 ? 'the Administration entry of its grants' : 'no Administration entry';
  test(`${who} gets 403 on every release call and ${entry}`, async ({ page }) => {
    const account = user();
    await signedInAtHome(page, account);
    for (const name of RELEASE_CALLS) {
      const answer = await consoleCall(page, name, INPUT[name]);
      expect(answer.status, `${name}: ${JSON.stringify(answer.body)}`).toBe(403);
      // Refused for the permission itself: nothing says what else the console would ask (ADR 0058).
      expect(codesOf(answer), name).toEqual(['forbidden']);
    }
    // The console's own question answers the grants' permissions (none for the employee, none of releases for
    // anyone here); the menu offers the console exactly when there is one.
    const access = await consoleCall(page, 'ConsoleAccess');
    expect(access.status).toBe(200);
    const answered = (access.body as { permissions: string[] }).permissions;
    expect([...answered].sort()).toEqual([...permissions].sort());
    expect(answered.filter((p) => p.startsWith('console.releases.'))).toEqual([]);
    await expect(await administrationEntry(page)).toHaveCount(permissions.length > 0 ? 1 : 0);
  });
}

test('the release manager reads the releases and sees only Releases in the console', async ({ page }) => {
  await signInWithCode(page, CONSOLE_USERS.releasemanager, { returnUrl: '/' });
  const answer = await consoleCall(page, 'Releases');
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const administration = await administrationEntry(page);
  await administration.click();
  const releases = releasesPage(page);
  await expect(releases.heading).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/releases$/);
  await expect(releases.consoleNav.getByRole('link')).toHaveText(['Releases']);
});

test('the platform administrator finds Administration in the account menu', async ({ page }) => {
  await signInWithCode(page, CONSOLE_USERS.platformadmin, { returnUrl: '/' });
  const administration = await administrationEntry(page);
  await expect(administration).toBeVisible();
  await administration.click();
  await expect(releasesPage(page).heading).toBeVisible();
  await expect(releasesPage(page).consoleNav.getByRole('link', { name: 'Releases' })).toBeVisible();
});
