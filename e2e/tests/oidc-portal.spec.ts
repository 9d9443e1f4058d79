/**
 * A payroll application signs its users in through the identity service with OpenID Connect and
 * signs them out again. Chromium drives the shared harness's built gateway (global-setup), the real sign-in remote
 * and the demo portal (openid-client), registered as a client through the admin CLI against the same DATA_DIR while
 * the gateway runs (the provider reads clients from the store on each lookup).
 */
import { expect, test } from '@playwright/test';
import { appTookOver } from '../helpers/sign-in.js';
import { harnessIdentityService, startPortal, type IdentityService, type Portal } from '../helpers/portal.js';

let identity: IdentityService;
let portal: Portal;

test.beforeAll(async () => {
  identity = harnessIdentityService();
  portal = await startPortal({ issuer: identity.url, gatewayEnv: identity.env });
});

test.afterAll(async () => {
  await portal?.stop();
});

test('portal → sign-in → back with name and roles → sign out → signed out everywhere', async ({ page }) => {
  await page.goto(portal.url);
  await expect(page.locator('#status')).toHaveText('You are signed out');

  // The portal sends the browser to the identity service, which hands it to the sign-in page.
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/login`));
  const returnUrl = new URL(page.url()).searchParams.get('returnUrl') ?? '';
  expect(returnUrl).toMatch(/^\/interaction\//);
  // The gateway drew the page; the app's submit (not the native form) starts once it has taken over.
  await appTookOver(page);

  await page.getByRole('textbox', { name: 'Username or email' }).fill('employee');
  await page.getByLabel('Password', { exact: true }).fill('Demo-Password-1!');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();

  // Back in the portal with the claims of the ID token.
  await expect(page).toHaveURL(`${portal.url}/`);
  await expect(page.locator('#status')).toContainText('Signed in as');
  await expect(page.locator('#user-name')).toHaveText('Emma Employee');
  await expect(page.locator('#user-roles li')).toHaveText(['EMPLOYEE']);

  // RP-initiated logout with id_token_hint: the portal proved itself, so the sign-out page signs out without asking
  // (S32); the logged-out state is recorded on the logged-out page, and the browser returns to the portal by itself.
  await page.getByRole('link', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(`${portal.url}/`);
  await expect(page.locator('#status')).toHaveText('You are signed out');

  // The way back was for that moment only: the logged-out page, visited again, no longer offers or follows it.
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/loggedout\\?logoutId=`));
  await page.reload();
  await expect(page.getByText('You have signed out.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return to Payroll portal' })).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/loggedout`));

  await page.goto(portal.url);
  await expect(page.locator('#status')).toHaveText('You are signed out');

  // The identity service's session is gone too: signing in again asks for the password.
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/login`));
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
});
