/**
 * The console's People section (issue 52, ADR 0061), in Chromium against a gateway of the spec's own (demo data, a
 * real SMTP listener) and the demo payroll portal: a support user of the demo partner (granted with the admin CLI)
 * finds `authenticator` and resets its second factor — the person got a mail, and their next sign-in asks them to
 * set one up; it disables `employee` while `employee` is signed in at the portal — the portal is told by
 * back-channel logout — and enables the account again. A customer administrator of Acme Retail sees only its
 * members and is refused (403) a member of Acme Logistics only. axe: the pages light and dark, and right to left.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { addUser, runAdmin } from '../helpers/admin.js';
import { expectAxeCleanLightAndDark } from '../helpers/axe.js';
import { consoleCall } from '../helpers/console.js';
import { DEMO_USERS, type DemoUser } from '../helpers/demo-users.js';
import { startMailCatcher, type MailCatcher } from '../helpers/mail.js';
import { DEMO_LANGUAGES_WITH_ARABIC, waitForPartnerLanguage } from '../helpers/partners.js';
import { startIdentityService, startPortal, type IdentityService, type Portal } from '../helpers/portal.js';
import { appTookOver } from '../helpers/sign-in.js';
import { setUpAuthenticator, twoFactorPages } from '../helpers/two-factor.js';

// Operators set up an authenticator at their first sign-in; a code may wait for the next time step (S17).
test.describe.configure({ mode: 'serial', timeout: 120_000 });

let mail: MailCatcher;
let identity: IdentityService;
let portal: Portal;
let support: Page;

const REASON = 'Called the help desk: lost phone';

/** Signs `user` in on the spec's gateway, through the set-up wizard it requires, and lands on `returnUrl`. */
async function operatorSignedIn(browser: Browser, user: DemoUser, returnUrl: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${identity.url}/account/login?returnUrl=${encodeURIComponent(returnUrl)}`);
  await appTookOver(page);
  await page.getByRole('textbox', { name: 'Username or email' }).fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/account\/setup-twofactor/);
  await setUpAuthenticator(page, new Set());
  await twoFactorPages(page).wizard.finish.click();
  await expect(page).toHaveURL((url) => url.pathname === returnUrl);
  return page;
}

/** Opens the person page of `username` from the People search. */
async function openPerson(page: Page, username: string) {
  await page.goto(`${identity.url}/admin/people`);
  await page.getByRole('searchbox', { name: 'Search' }).fill(username);
  await page.getByRole('button', { name: 'Find' }).click();
  await page.getByTestId(`person-row-${username}`).getByRole('link', { name: username }).click();
  await expect(page).toHaveURL(/\/admin\/person\?id=/);
  await expect(page.getByTestId('person')).toBeVisible();
}

/** Runs one action of the person page, confirmed with the reason; waits for its result. */
async function act(page: Page, call: string, confirm: string, result: string) {
  await page.getByTestId(`person-action-${call}`).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('person-reason').fill(REASON);
  await dialog.getByRole('button', { name: confirm }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('person-result')).toHaveText(new RegExp(result));
}

test.beforeAll(async ({ browser }) => {
  mail = await startMailCatcher();
  identity = await startIdentityService({ SMTP_URL: mail.url });
  portal = await startPortal({ issuer: identity.url, gatewayEnv: identity.env });
  const user = addUser('support', ['--partner', 'demo', '--require-2fa'], identity.env);
  runAdmin(['console', 'grant', user.username, '--role', 'support', '--partner', 'demo'], identity.env);
  support = await operatorSignedIn(browser, user, '/admin/people');
});

test.afterAll(async () => {
  await portal?.stop();
  await identity?.stop();
  await mail?.close();
});

test('support finds authenticator and resets its second factor: mailed, and set up again at the next sign-in', async ({
  page,
}) => {
  await openPerson(support, 'authenticator');
  await expect(support.getByTestId('person')).toContainText('Authenticator app');
  await expectAxeCleanLightAndDark(support);
  await act(
    support,
    'ResetPersonSecondFactor',
    'Reset two-step verification',
    'two-step verification is reset',
  );
  await expect(support.getByTestId('person')).not.toContainText('Authenticator app');
  await expect(support.getByTestId('person-two-step-required')).toHaveText('Yes');

  const notice = await mail.waitFor(DEMO_USERS.authenticator.email, /changed by support/);
  expect(notice.text).toContain('two-step verification methods and recovery codes were removed');

  // The person's next sign-in asks them to set up a second factor (no code asked: there is none left).
  await page.goto(`${identity.url}/account/login?returnUrl=%2Faccount%2F`);
  await appTookOver(page);
  await page.getByRole('textbox', { name: 'Username or email' }).fill('authenticator');
  await page.getByLabel('Password', { exact: true }).fill(DEMO_USERS.authenticator.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/account\/setup-twofactor/);
});

test('support disables an account signed in at the portal (back-channel logout), then enables it', async ({
  page,
}) => {
  // employee signs in at the demo portal.
  await page.goto(portal.url);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await appTookOver(page);
  await page.getByRole('textbox', { name: 'Username or email' }).fill('employee');
  await page.getByLabel('Password', { exact: true }).fill(DEMO_USERS.employee.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(`${portal.url}/`);
  await expect(page.locator('#status')).toContainText('Signed in as');

  await openPerson(support, 'employee');
  await act(support, 'DisablePerson', 'Disable account', 'disabled and signed out everywhere');
  await expect(support.getByTestId('person-state')).toHaveText('Disabled');

  // The portal heard it by back-channel logout: its own session is gone without the browser doing anything.
  await page.reload();
  await expect(page.locator('#status')).toHaveText('You are signed out');
  await mail.waitFor(DEMO_USERS.employee.email, /changed by support/);

  await act(support, 'EnablePerson', 'Enable account', 'is enabled');
  await expect(support.getByTestId('person-state')).toHaveText('Active');
  const audit = runAdmin(['audit', '--kind', 'console.people'], identity.env);
  expect(audit).toContain('console.people.disabled');
  expect(audit).toContain('console.people.enabled');
});

test('a customer administrator of Acme Retail sees only its members and is refused a member of Acme Logistics only', async ({
  browser,
}) => {
  const before = new Set(runAdmin(['memberships', 'list'], identity.env).split('\n'));
  const outsider = addUser('logistics', ['--partner', 'demo'], identity.env);
  runAdmin(
    ['memberships', 'add', '--username', outsider.username, '--customer', 'acme-logistics'],
    identity.env,
  );
  const outsiderId = runAdmin(['memberships', 'list'], identity.env)
    .split('\n')
    .find((line) => !before.has(line) && line.includes('acme-logistics'))!
    .split('\t')[0]!;
  const admin = addUser('retailadmin', ['--partner', 'demo', '--require-2fa'], identity.env);
  runAdmin(
    ['console', 'grant', admin.username, '--role', 'customerAdmin', '--customer', 'acme-retail'],
    identity.env,
  );
  const page = await operatorSignedIn(browser, admin, '/admin/people');

  await expect(page.getByTestId('person-row-employee')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill(outsider.username);
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByTestId('people-count')).toHaveText('0 people found');
  await expectAxeCleanLightAndDark(page);

  // Issue 52's Proof: refused (403), with nothing of the person; an id nobody has is not found (404).
  const refused = await consoleCall(page, 'ConsolePerson', { id: outsiderId });
  expect({ status: refused.status, body: refused.body }).toMatchObject({
    status: 403,
    body: { errors: { '': ['forbidden'] } },
  });
  expect(JSON.stringify(refused.body)).not.toContain(outsider.username);
  const unknown = await consoleCall(page, 'ConsolePerson', { id: '00000000-0000-4000-8000-000000000052' });
  expect(unknown.status).toBe(404);
  await page.goto(`${identity.url}/admin/person?id=${outsiderId}`);
  await expect(page.getByTestId('person-missing')).toHaveText(
    'This person is not among the people you help: you can neither see nor change their account.',
  );
});

test('axe finds nothing on the person page right to left (Arabic), light and dark', async () => {
  runAdmin(
    ['partners', 'update', '--id', 'demo', '--languages', DEMO_LANGUAGES_WITH_ARABIC, '--allow-untranslated'],
    identity.env,
  );
  await waitForPartnerLanguage(identity.url, 'ar');
  await support
    .context()
    .addCookies([
      { name: '.AspNetCore.Culture', value: encodeURIComponent('c=ar|uic=ar'), url: identity.url },
    ]);
  await support.evaluate(() => localStorage.setItem('locale', 'ar'));
  await openPerson(support, 'authenticator');
  await expect(support.locator('html')).toHaveAttribute('dir', 'rtl');
  await support.getByTestId('person-action-DisablePerson').click();
  await expect(support.getByRole('dialog')).toBeVisible();
  await expectAxeCleanLightAndDark(support);
});
