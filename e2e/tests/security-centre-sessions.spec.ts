/**
 * Sessions people can tell apart (issue 49 item 8, ADR 0049), in Chromium against the real gateway: the same user
 * signed in from "Firefox on Windows" and "Safari on an iPhone" (browser contexts with those user agents) and from
 * this browser. The security centre lists this browser first and labelled, then the others, each with its browser,
 * system, device type, place and dates; the iPhone signs itself out and is gone from the list; "Sign out everywhere
 * else" asks first — cancelled, nothing ends; confirmed, the other browser is signed out for real. Axe clean on the
 * list and on the open confirmation, light and dark.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { addUser } from '../helpers/admin.js';
import { expectAxeCleanLightAndDark } from '../helpers/axe.js';
import type { DemoUser } from '../helpers/demo-users.js';
import { harnessIdentityService, type IdentityService } from '../helpers/portal.js';
import { submitPassword } from '../helpers/sign-in.js';

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

// Three sign-ins and axe four times on a machine the CI shares.
test.describe.configure({ timeout: 120_000 });

// Read in the worker once its system is up, not when the file loads: `playwright test --list` loads every file
// without the global setup.
let identity: IdentityService;
test.beforeAll(() => {
  identity = harnessIdentityService();
});

async function signedInAtTheCentre(page: Page, user: DemoUser) {
  await submitPassword(page, identity.url, user);
  await expect(page).toHaveURL(/\/account\/$/);
  await expect(page.getByTestId('sessions')).toBeVisible();
}

/** Another browser (a context of its own, with `userAgent`) signed in as the same user, on /account/. */
async function otherBrowserSignedIn(browser: Browser, user: DemoUser, userAgent: string) {
  const context = await browser.newContext({ userAgent });
  const page = await context.newPage();
  await signedInAtTheCentre(page, user);
  return { context, page };
}

const isSignedIn = async (page: Page) =>
  (
    await page.evaluate(
      async () => (await (await fetch('/api/Account/User')).json()) as { isAuthenticated: boolean },
    )
  ).isAuthenticated;

test('two named browsers told apart, this one first and labelled; one signed out is gone; "Sign out everywhere else" cancelled, then confirmed', async ({
  page,
  browser,
}) => {
  const user = addUser('sessions', [], identity.env);
  // This browser signs in first: it is listed first although the others were active since.
  await signedInAtTheCentre(page, user);
  const firefox = await otherBrowserSignedIn(browser, user, FIREFOX_WINDOWS);
  const iphone = await otherBrowserSignedIn(browser, user, SAFARI_IPHONE);

  await page.reload();
  const sessions = page.getByTestId('sessions');
  const rows = sessions.getByTestId('session');
  await expect(rows).toHaveCount(3);
  // This browser (Playwright's Chromium on Linux), first and labelled.
  await expect(rows.nth(0)).toContainText('Chrome on Linux');
  await expect(rows.nth(0)).toContainText('(This browser)');
  await expect(rows.nth(0).getByRole('button')).toHaveCount(0);
  const firefoxRow = rows.filter({ hasText: 'Firefox on Windows' });
  const iphoneRow = rows.filter({ hasText: 'Safari on iOS' });
  await expect(firefoxRow.getByTestId('session-where')).toHaveText(
    'Computer · On the same computer as this service',
  );
  await expect(iphoneRow.getByTestId('session-where')).toHaveText(
    'Phone · On the same computer as this service',
  );
  for (const row of [firefoxRow, iphoneRow]) {
    await expect(row).toContainText('Signed in on');
    await expect(row).toContainText('Last active on');
    await expect(row).not.toContainText('This browser');
  }
  // The loopback address is all this run has; never an address on the page.
  await expect(sessions).not.toContainText('127.0.0.1');
  await expect(sessions).not.toContainText('::1');
  await expectAxeCleanLightAndDark(page);

  // The iPhone signs itself out: gone from the list.
  await iphone.page.getByRole('link', { name: 'Sign out', exact: true }).click();
  await iphone.page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(iphone.page).toHaveURL(/\/account\/loggedout/);
  await iphone.context.close();
  await page.reload();
  await expect(rows).toHaveCount(2);
  await expect(sessions).not.toContainText('Safari on iOS');
  await expect(firefoxRow.getByRole('button', { name: 'Sign out Firefox on Windows' })).toBeVisible();

  // "Sign out everywhere else" asks first, Cancel focused; cancelled, nothing ends and focus comes back.
  const everywhere = sessions.getByRole('button', { name: 'Sign out everywhere else' });
  await everywhere.click();
  const dialog = page.getByRole('alertdialog', { name: 'Sign out everywhere else?' });
  await expect(dialog).toContainText('1 other session will be signed out');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectAxeCleanLightAndDark(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(everywhere).toBeFocused();
  await expect(rows).toHaveCount(2);
  expect(await isSignedIn(firefox.page)).toBe(true);

  // Confirmed: the other browser is signed out for real; this one stays, alone in the list.
  await everywhere.click();
  await dialog.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(page.getByText('You have been signed out everywhere else')).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0)).toContainText('(This browser)');
  expect(await isSignedIn(firefox.page)).toBe(false);
  expect(await isSignedIn(page)).toBe(true);
  await firefox.context.close();
});
