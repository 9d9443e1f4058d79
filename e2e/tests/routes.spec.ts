/**
 * SPEC.md §2: every route renders its owner's page; unknown paths show not-found with HTTP 404; the two
 * non-anonymous routes send a visitor without a session to the sign-in page with the full path as returnUrl.
 */
import { expect, test } from '@playwright/test';
import { ROUTES } from 'shared-contracts';
import { expectPage, openPage } from '../helpers/shell.js';
import { appTookOver, signInPage } from '../helpers/sign-in.js';

const pages = ROUTES.filter((route) => route.path !== '*' && route.anonymous && route.path !== '/redirect');

/**
 * Pages of a sign-in step that load the step's view at once: without a pending sign-in there is nothing to continue,
 * so the server answers "start again" and the visitor lands on the sign-in page (ADR 0005), without being told a
 * session timed out (there was none).
 */
const STEP_PAGES = new Set([
  '/account/login/twofactor',
  '/account/login/recoverycode',
  '/account/setup-twofactor',
]);

/** The account page (the security centre): a visitor goes to sign in and back to it (issue 49). */
const ACCOUNT_PAGES = new Set(['/account', '/account/']);

test.describe("every route renders its owner's page", () => {
  for (const route of pages) {
    test(`${route.path} → "${route.title}" (${route.owner})`, async ({ page }) => {
      const remoteEntries: string[] = [];
      page.on('request', (request) => {
        const match = /\/remotes\/([^/]+)\/[^/]+\/remoteEntry\.js/.exec(request.url());
        if (match?.[1]) remoteEntries.push(match[1]);
      });
      // The sign-out page signs a visitor out at once when no confirmation is needed and moves on to the
      // logged-out page; holding its first call keeps it on screen long enough to see whose page it is.
      let release: () => void = () => undefined;
      if (route.path === '/account/logout') {
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route('**/api/Account/LogoutView**', async (call) => {
          await held;
          await call.continue();
        });
      }
      const response = await openPage(page, route.path);
      expect(response?.status()).toBe(200);
      if (STEP_PAGES.has(route.path)) {
        await expect(page).toHaveURL(/\/account\/login\?returnUrl=/);
        await expectPage(page, 'Sign in');
        // Opened cold, nothing had timed out (issue 49): no "Your session had timed out" greeting.
        await expect(page.getByText('Your session had timed out. Please try again.')).toHaveCount(0);
        // The step's own remote answered first, then the sign-in page's.
        expect(remoteEntries).toEqual([route.owner, 'mfe-login']);
        return;
      }
      if (ACCOUNT_PAGES.has(route.path)) {
        await expect(page).toHaveURL(`/account/login?returnUrl=${encodeURIComponent('/account/')}`);
        await expectPage(page, 'Sign in');
        expect(remoteEntries).toEqual(['mfe-login']);
        return;
      }
      await expectPage(page, route.title);
      // A sign-in page is drawn by the gateway first: its heading shows before the remote has loaded.
      await appTookOver(page);
      release();
      // The page comes from its owner: a remote route loads exactly that remote, a shell route none.
      expect(remoteEntries).toEqual(route.owner === 'shell' ? [] : [route.owner]);
    });
  }

  test('/redirect without a returnUrl goes home', async ({ page }) => {
    await page.goto('/redirect');
    await expect(page).toHaveURL(/\/$/);
    await expectPage(page, 'Home');
  });

  test('/redirect follows a safe local returnUrl and refuses another origin', async ({ page }) => {
    await page.goto(`/redirect?returnUrl=${encodeURIComponent('/account/recover?x=1')}`);
    await expect(page).toHaveURL(/\/account\/recover\?x=1$/);
    await expectPage(page, 'Recover your account');
    await page.goto(`/redirect?returnUrl=${encodeURIComponent('//evil.example/phish')}`);
    await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/$/);
  });
});

test('an unknown path shows the not-found page with HTTP 404', async ({ page }) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expectPage(page, 'Page not found');
});

for (const route of ROUTES.filter((r) => !r.anonymous)) {
  test(`${route.path} without a session → the sign-in page with the full path as returnUrl (issue 43)`, async ({
    page,
  }) => {
    await page.goto(`${route.path}?cid=7`);
    await expect(page).toHaveURL(`/account/login?returnUrl=${encodeURIComponent(`${route.path}?cid=7`)}`);
    await expect(signInPage(page).username).toBeVisible();
  });
}

test('layout flags: /devops has no navbar; no page draws a side panel, a sign-in page is one centred card (ADR 0037)', async ({
  page,
}) => {
  await openPage(page, '/');
  await expect(page.locator('.shell')).toHaveAttribute('data-sidebar', 'false');
  await expect(page.locator('.shell__sidebar, aside')).toHaveCount(0);
  await openPage(page, '/devops');
  await expect(page.locator('.shell')).toHaveAttribute('data-navbar', 'false');
  await expect(page.getByTestId('partner-header')).toHaveCount(0);
  await openPage(page, '/error');
  await expect(page.locator('.shell')).toHaveAttribute('data-sidebar', 'true');
  await expect(page.getByTestId('partner-header')).toBeVisible();
  await openPage(page, '/account/login');
  await expect(page.locator('aside')).toHaveCount(0);
  // The card sits in the middle of a wide screen: as much room on its start side as on its end side.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  // Polled: the drawn first paint is replaced when the app takes over, and a box read in between is null.
  await expect
    .poll(async () => {
      const card = await page.locator('main .hr-page').boundingBox();
      return card ? Math.abs(card.x - (1280 - (card.x + card.width))) : Number.POSITIVE_INFINITY;
    })
    .toBeLessThanOrEqual(2);
});
