/**
 * Issue 3's proof: a payroll application signs its users in through the identity service with OpenID Connect and
 * signs them out again. Chromium drives the real built gateway, the real sign-in remote and the demo portal
 * (openid-client), registered as a client through the admin CLI.
 */
import { expect, test } from '@playwright/test';
import { startIdentityService, startPortal, type IdentityService, type Portal } from '../helpers/portal.js';

let identity: IdentityService;
let portal: Portal;

test.beforeAll(async () => {
  identity = await startIdentityService();
  portal = await startPortal({ issuer: identity.url, gatewayEnv: identity.env });
});

test.afterAll(async () => {
  await portal?.stop();
  await identity?.stop();
});

test('portal → sign-in → back with name and roles → sign out → signed out everywhere', async ({ page }) => {
  await page.goto(portal.url);
  await expect(page.locator('#status')).toHaveText('You are signed out');

  // The portal sends the browser to the identity service, which hands it to the sign-in page.
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/login`));
  const returnUrl = new URL(page.url()).searchParams.get('returnUrl') ?? '';
  expect(returnUrl).toMatch(/^\/interaction\//);

  await page.getByRole('textbox', { name: 'Username or email' }).fill('employee');
  await page.getByLabel('Password', { exact: true }).fill('Demo-Password-1!');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();

  // Back in the portal with the claims of the ID token.
  await expect(page).toHaveURL(`${portal.url}/`);
  await expect(page.locator('#status')).toContainText('Signed in as');
  await expect(page.locator('#user-name')).toHaveText('Emma Employee');
  await expect(page.locator('#user-roles li')).toHaveText(['EMPLOYEE']);

  // RP-initiated logout with id_token_hint: the sign-in site's sign-out page finishes it (it may skip the prompt,
  // since the portal proved itself with the hint; S32).
  await page.getByRole('link', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/account\/logout\?logoutId=|\/account\/loggedout|^http:\/\/localhost:\d+\/$/);
  const confirm = page.getByRole('button', { name: 'Yes, sign me out' });
  if (page.url().includes('/account/logout?') && (await confirm.isVisible().catch(() => false))) {
    await confirm.click();
  }
  // The sign-out ends at the logged-out page or, when the portal registered a post-logout URI, back at the portal.
  await expect(page).toHaveURL(new RegExp(`${identity.url}/account/loggedout|^${portal.url}/$`));
  if (page.url().startsWith(`${identity.url}/account/loggedout`)) {
    await expect(page.getByText('You are logged out.')).toBeVisible();
  }

  await page.goto(portal.url);
  await expect(page.locator('#status')).toHaveText('You are signed out');

  // The identity service's session is gone too: signing in again asks for the password.
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/login`));
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
});
