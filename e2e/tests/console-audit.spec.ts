/**
 * The console's grants and audit search (issue 52, ADR 0063), in Chromium against this worker's gateway: the demo
 * platform administrator grants support of the demo partner to a new user and withdraws it, each confirmed with a
 * reason; cannot withdraw the last platform administrator (the page says why); then finds both changes in the audit
 * by actor and date range and downloads them as CSV; imports a CSV with bad rows (each listed, nothing stored) and
 * then a good one; and axe finds nothing on the three pages, light and dark, left to right and right to left.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { addUser } from '../helpers/admin.js';
import { expectAxeCleanLightAndDark } from '../helpers/axe.js';
import { said, signInWithCode, withConfirmItsYou } from '../helpers/console.js';
import { CONSOLE_USERS } from '../helpers/demo-users.js';
import {
  DEMO_LANGUAGES,
  DEMO_LANGUAGES_WITH_ARABIC,
  updateDemoPartner,
  waitForPartnerLanguage,
} from '../helpers/partners.js';
import { systemUnderTest } from '../helpers/system.js';

test.describe.configure({ mode: 'serial' });

const admin = CONSOLE_USERS.platformadmin;

/**
 * The first test signs the administrator in; the next ones go on in that session, from the cookies the test before
 * left (a confirmation gives the session a new id, S24). The gateway takes each authenticator time step once per
 * account (S17), so a sign-in per test waited up to 30 s for the next step from the third one on.
 */
let session: Awaited<ReturnType<BrowserContext['storageState']>> | undefined;
// Playwright reads a fixture's dependencies from its first parameter's pattern; this one depends on none.
// eslint-disable-next-line no-empty-pattern
test.use({ storageState: async ({}, use) => use(session) });
test.afterEach(async ({ context }) => {
  session = await context.storageState();
});

/** Opens `path` of the console in the session the first test signed in. */
async function openSignedIn(page: Page, path: string) {
  expect(session, 'the session the first test signed in').toBeDefined();
  await page.goto(path);
  await expect(page).toHaveURL((url) => url.pathname === path);
}

/** Today (UTC, as the audit's days are) in the en-GB form the date field takes. */
function todayTyped(): string {
  const now = new Date();
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(now.getUTCDate())}/${two(now.getUTCMonth() + 1)}/${now.getUTCFullYear()}`;
}

function grantsPage(page: Page) {
  const dialog = page.getByTestId('grant-dialog');
  return {
    heading: page.getByRole('heading', { level: 1, name: 'Grants' }),
    grant: page.getByRole('button', { name: 'Grant a role' }),
    result: page.getByTestId('grants-result'),
    row: (username: string) => page.getByTestId('grant-row').filter({ hasText: username }),
    dialog: {
      root: dialog,
      username: dialog.getByLabel('Username'),
      role: dialog.getByLabel('Role'),
      partner: dialog.getByLabel('Partner ID'),
      reason: dialog.getByLabel('Reason (required)'),
      confirm: (name: 'Grant' | 'Withdraw') => dialog.getByRole('button', { name, exact: true }),
    },
  };
}

let grantee = '';

test('a platform administrator grants support of the demo partner and withdraws it', async ({ page }) => {
  grantee = addUser('helpdesk').username;
  await signInWithCode(page, admin, { returnUrl: '/admin/grants' });
  const grants = grantsPage(page);
  await expect(grants.heading).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Grants' }),
  ).toBeVisible();

  await grants.grant.click();
  await grants.dialog.username.fill(grantee);
  await grants.dialog.role.selectOption({ label: 'Support' });
  await grants.dialog.partner.fill('demo');
  await grants.dialog.reason.fill('joined the help desk');
  await withConfirmItsYou(
    page,
    admin,
    () => grants.dialog.confirm('Grant').click(),
    grants.result.getByText(said`${grantee} is now Support (partner ${'demo'}).`),
  );
  await expect(grants.row(grantee)).toContainText(said`partner ${'demo'}`);

  await grants.row(grantee).getByRole('button', { name: 'Withdraw' }).click();
  await expect(grants.dialog.root).toContainText(
    said`${grantee} will no longer be Support (partner ${'demo'}).`,
  );
  await grants.dialog.reason.fill('moved to payroll');
  await withConfirmItsYou(
    page,
    admin,
    () => grants.dialog.confirm('Withdraw').click(),
    grants.result.getByText(said`${grantee} is no longer Support (partner ${'demo'}).`),
  );
  await expect(grants.row(grantee)).toHaveCount(0);
});

test('the last platform administrator cannot be withdrawn, and the page says why', async ({ page }) => {
  await openSignedIn(page, '/admin/grants');
  const grants = grantsPage(page);
  const own = grants.row(admin.username).filter({ hasText: 'Platform administrator' });
  await own.getByRole('button', { name: 'Withdraw' }).click();
  await grants.dialog.reason.fill('leaving');
  await withConfirmItsYou(
    page,
    admin,
    () => grants.dialog.confirm('Withdraw').click(),
    grants.dialog.root.getByText('This is the last platform administrator: grant another one first.'),
  );
  await page.keyboard.press('Escape');
  await expect(own).toHaveCount(1);
});

test('the audit finds the changes by actor and date range, and downloads them as CSV', async ({ page }) => {
  // Serial file: the first test made the grant this one searches for; without it this test fails, never skips.
  expect(grantee, 'the grant made by the first test').toBeTruthy();
  await openSignedIn(page, '/admin/audit');
  await expect(page.getByRole('heading', { level: 1, name: 'Audit' })).toBeVisible();
  await page.getByLabel('Actor', { exact: true }).fill(admin.username);
  await page.getByLabel('Subject', { exact: true }).fill(grantee);
  await page.getByLabel('From', { exact: true }).fill(todayTyped());
  await page.getByLabel('To', { exact: true }).fill(todayTyped());
  await page.getByLabel('To', { exact: true }).blur();
  await page.getByRole('button', { name: 'Search' }).click();
  const rows = page.getByTestId('audit-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('console.grant.withdrawn');
  await expect(rows.nth(0)).toContainText('moved to payroll');
  await expect(rows.nth(1)).toContainText('console.grant.added');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('audit-export').click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8')
    .trimEnd()
    .split('\r\n');
  expect(csv[0]).toContain('"kind","outcome","actor","subject","reason"');
  expect(csv).toHaveLength(3);
  expect(csv[1]).toContain('"console.grant.withdrawn"');
  expect(csv[2]).toContain(`"${grantee}"`);
});

test('an import with bad rows lists each with its number and stores nothing; then a good one imports', async ({
  page,
}) => {
  const tag = Date.now().toString(36);
  await openSignedIn(page, '/admin/import');
  await expect(page.getByRole('heading', { level: 1, name: 'Import' })).toBeVisible();
  // A member of its own: a demo user given a second customer would meet the customer choice in later specs.
  const member = addUser('import-member').username;
  const csv = page.getByLabel('CSV text');
  const submit = page.getByRole('button', { name: 'Import', exact: true });
  await csv.fill(
    [
      'id,name,partner,username,roles',
      `e2e-shop-${tag},Shop ${tag},demo,${member},EMPLOYEE`,
      `e2e-bad-${tag},Bad,nowhere,,`,
      `e2e-ghost-${tag},Ghost,demo,ghost-${tag},`,
    ].join('\n'),
  );
  await page.getByLabel('Reason (required)').fill('onboarding');
  await withConfirmItsYou(page, admin, () => submit.click(), page.getByTestId('import-bad-rows'));
  const bad = page.getByTestId('import-bad-rows');
  await expect(bad).toContainText('2 rows are wrong; nothing was imported:');
  // The reasons are the errors map's codes with their values, shown in the page's language (issue 52).
  await expect(bad.getByRole('listitem')).toHaveText([
    'Row 3: there is no partner "nowhere".',
    `Row 4: there is no user "ghost-${tag}".`,
  ]);

  await csv.fill(
    ['id,name,partner,username,roles', `e2e-shop-${tag},Shop ${tag},demo,${member},EMPLOYEE`].join('\n'),
  );
  await submit.click();
  await expect(page.getByTestId('import-result')).toHaveText('Imported 1 customer and 1 membership.');
  await expect(bad).toHaveCount(0);
  // Nothing of the bad file was stored: its good row's customer was still new to the second file.
});

test('axe finds nothing on the grants, audit and import pages, light and dark, left to right and right to left', async ({
  page,
  context,
}) => {
  await openSignedIn(page, '/admin/grants');
  const pages = [
    { path: '/admin/grants', ready: page.getByTestId('grant-row').first() },
    { path: '/admin/audit', ready: page.getByTestId('audit-retention') },
    { path: '/admin/import', ready: page.getByLabel('CSV text') },
  ];
  for (const { path, ready } of pages) {
    await page.goto(path);
    await expect(ready).toBeVisible();
    await expectAxeCleanLightAndDark(page);
  }
  const { baseUrl, dataDir } = systemUnderTest();
  updateDemoPartner(['--languages', DEMO_LANGUAGES_WITH_ARABIC, '--allow-untranslated'], dataDir);
  try {
    await waitForPartnerLanguage(baseUrl, 'ar');
    await context.addCookies([
      { name: '.AspNetCore.Culture', value: encodeURIComponent('c=ar|uic=ar'), url: baseUrl },
    ]);
    await page.evaluate(() => localStorage.setItem('locale', 'ar'));
    for (const { path } of pages) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await expect(page.getByRole('navigation').last()).toBeVisible();
      await expectAxeCleanLightAndDark(page);
    }
  } finally {
    await page.evaluate(() => localStorage.removeItem('locale'));
    updateDemoPartner(['--languages', DEMO_LANGUAGES], dataDir);
    await waitForPartnerLanguage(baseUrl, 'ar', false);
  }
});
