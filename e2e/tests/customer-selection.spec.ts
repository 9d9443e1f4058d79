/**
 * Customer selection (issue 16, ADR 0009) as the payroll portal's users meet it: `hradmin`, who serves several
 * customers, signs in through the portal, searches and pages through the customers at /account/select (in natural
 * order, "Acme Branch 9" before "Acme Branch 10", through the "Pages" navigation below the list; issue 43), picks one,
 * and the portal shows that customer and the roles in it from the ID token; the portal's "Switch customer"
 * (prompt=select_account) issues tokens for another one; a user of one customer never meets the page; axe finds
 * nothing on the page in light, dark and RTL. A gateway of its own, whose customers are onboarded with the admin CLI's
 * `customers import`.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../helpers/demo-users.js';
import { DEMO_LANGUAGES_WITH_ARABIC } from '../helpers/partners.js';
import { startIdentityService, startPortal, type IdentityService, type Portal } from '../helpers/portal.js';
import { appTookOver } from '../helpers/sign-in.js';
import { GATEWAY_DIST } from '../helpers/system.js';

let identity: IdentityService;
let portal: Portal;

/** The branches hradmin also serves, as a manager: with the two seeded Acme customers, twelve match "acme". */
const BRANCHES = Array.from({ length: 10 }, (_, i) => `Acme Branch ${i + 1}`);

function admin(args: string[]): string {
  const result = spawnSync(process.execPath, [path.join(GATEWAY_DIST, 'cli', 'admin.js'), ...args], {
    env: identity.env,
    encoding: 'utf8',
  });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0) throw new Error(`admin ${args.join(' ')} failed:\n${output}`);
  return output;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  identity = await startIdentityService();
  portal = await startPortal({ issuer: identity.url, gatewayEnv: identity.env });
  // Onboarded as an operator would: one CSV through `admin customers import`, hradmin a member of each.
  const csv = path.join(identity.env.DATA_DIR!, 'customers.csv');
  writeFileSync(
    csv,
    [
      'id,name,partner,username,roles',
      ...BRANCHES.map((name, i) => `acme-branch-${i + 1},${name},demo,hradmin,MANAGER`),
      'globex,Globex Corporation,demo,hradmin,EMPLOYEE',
    ].join('\n'),
  );
  expect(admin(['customers', 'import', csv])).toContain('imported 11 customers and 11 memberships');
  // An RTL language among the partner's, for the mirrored page.
  admin([
    'partners',
    'update',
    '--id',
    'demo',
    '--languages',
    DEMO_LANGUAGES_WITH_ARABIC,
    '--allow-untranslated',
  ]);
});

test.afterAll(async () => {
  await portal?.stop();
  await identity?.stop();
});

/** Types the credentials into the identity service's sign-in page the browser is on. */
async function signInAs(page: Page, username: string) {
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/login`));
  await appTookOver(page);
  await page.getByRole('textbox', { name: 'Username or email' }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

const selection = (page: Page) => {
  const list = page.getByRole('listbox', { name: 'Customers' });
  const pages = page.getByRole('navigation', { name: 'Pages' });
  return {
    search: page.getByRole('combobox', { name: 'Search customers' }),
    list,
    options: list.getByRole('option'),
    status: page.getByTestId('customers-status'),
    pages,
    pageNumber: pages.getByTestId('customers-page'),
    next: pages.getByRole('button', { name: 'Next' }),
    previous: pages.getByRole('button', { name: 'Previous' }),
  };
};

test('hradmin picks a customer through the portal, then switches to another', async ({ page }) => {
  await page.goto(portal.url);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await signInAs(page, 'hradmin');

  // Thirteen customers: the sign-in stops at the selection page, five at a time, in natural order.
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/select\\?returnUrl=%2Finteraction%2F`));
  const select = selection(page);
  await expect(select.status).toHaveText('Showing 1–5 of 13');
  await expect(select.options).toHaveText(BRANCHES.slice(0, 5));
  await expect(select.pageNumber).toHaveText('Page 1 of 3');
  await expect(select.previous).toBeDisabled();
  // The paging controls are navigation below the list, not options among the customers.
  await expect(select.pages.getByRole('option')).toHaveCount(0);
  const listBox = (await select.list.boundingBox())!;
  expect((await select.pages.boundingBox())!.y).toBeGreaterThanOrEqual(listBox.y + listBox.height);

  // Search as the user types: "acme" leaves twelve (the Globex one drops out); Branch 10 follows Branch 9.
  await select.search.fill('acme');
  await expect(select.status).toHaveText('Showing 1–5 of 12');
  await expect(page).toHaveURL(/[?&]filter=acme(&|$)/);
  await expect(select.options).toHaveText(BRANCHES.slice(0, 5));
  await select.next.click();
  await expect(select.status).toHaveText('Showing 6–10 of 12');
  await expect(select.pageNumber).toHaveText('Page 2 of 3');
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);
  await expect(select.options).toHaveText(BRANCHES.slice(5));
  await select.next.click();
  await expect(select.status).toHaveText('Showing 11–12 of 12');
  await expect(select.pageNumber).toHaveText('Page 3 of 3');
  await expect(select.options).toHaveText(['Acme Logistics GmbH', 'Acme Retail Ltd']);
  await expect(select.next).toBeDisabled();
  // Next turned disabled under the keyboard's focus: focus went to Previous rather than to the page.
  await expect(select.previous).toBeFocused();

  // A reload keeps the search and the page.
  await page.reload();
  await expect(select.search).toHaveValue('acme');
  await expect(select.status).toHaveText('Showing 11–12 of 12');

  // Nothing found says so.
  await select.search.fill('no such customer');
  await expect(select.status).toHaveText('No customer found.');
  await expect(select.options).toHaveCount(0);
  await expect(select.pages).toHaveCount(0);
  await select.search.fill('acme');
  await expect(select.status).toHaveText('Showing 1–5 of 12');
  await select.next.click();
  await expect(select.status).toHaveText('Showing 6–10 of 12');

  // The second customer of the page: the portal shows it, and the roles in it, from the ID token.
  await select.options.nth(1).click();
  await expect(page).toHaveURL(`${portal.url}/`);
  await expect(page.locator('#user-name')).toHaveText('Hanna HR-Admin');
  await expect(page.locator('#customer-name')).toHaveText('Acme Branch 7');
  await expect(page.locator('#customer-id')).toHaveText('acme-branch-7');
  await expect(page.locator('#user-roles li')).toHaveText(['MANAGER']);

  // Switching: the portal asks again with prompt=select_account; the signed-in user chooses by keyboard alone.
  await page.getByRole('link', { name: 'Switch customer' }).click();
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/select\\?returnUrl=%2Finteraction%2F`));
  // The customer used last comes first.
  await expect(select.options.first()).toHaveText(/^Acme Branch 7( |$)/);
  await select.search.fill('retail');
  await expect(select.status).toHaveText('Showing 1–1 of 1');
  await expect(select.options).toHaveText(['Acme Retail Ltd']);
  await select.search.press('Enter');
  await expect(page).toHaveURL(`${portal.url}/`);
  await expect(page.locator('#customer-name')).toHaveText('Acme Retail Ltd');
  await expect(page.locator('#customer-id')).toHaveText('acme-retail');
  await expect(page.locator('#user-roles li')).toHaveText(['HR_ADMIN', 'ADMIN']);

  // The operator ends that membership: the customer is no longer offered (S37).
  admin(['memberships', 'remove', '--username', 'hradmin', '--customer', 'acme-retail']);
  await page.getByRole('link', { name: 'Switch customer' }).click();
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/select`));
  await expect(select.status).toHaveText('Showing 1–5 of 12');
  await select.search.fill('retail');
  await expect(select.status).toHaveText('No customer found.');
});

test('a user of one customer never meets the selection page', async ({ page }) => {
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  });
  await page.goto(`${portal.url}/login`);
  await signInAs(page, 'employee');
  await expect(page).toHaveURL(`${portal.url}/`);
  await expect(page.locator('#user-name')).toHaveText('Emma Employee');
  await expect(page.locator('#customer-name')).toHaveText('Acme Retail Ltd');
  expect(visited.filter((url) => url.includes('/account/select'))).toEqual([]);
});

test.describe('accessibility of the selection page (axe-core)', () => {
  for (const variant of ['light', 'dark', 'rtl'] as const) {
    test(`no violations: ${variant}`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: variant === 'dark' ? 'dark' : 'light' });
      if (variant === 'rtl') await page.addInitScript(() => localStorage.setItem('locale', 'ar'));
      await page.goto(`${portal.url}/login`);
      await signInAs(page, 'hradmin');
      await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/select`));
      await expect(selection(page).options).toHaveCount(5);
      if (variant === 'rtl') {
        await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
        // Mirrored: Previous at the inline start, which is the right.
        const { previous, next } = selection(page);
        expect((await previous.boundingBox())!.x).toBeGreaterThan((await next.boundingBox())!.x);
      }
      await expect(page.locator('html')).toHaveAttribute('data-theme', variant === 'dark' ? 'dark' : 'light');
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    });
  }
});
