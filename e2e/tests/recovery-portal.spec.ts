/**
 * An application's OIDC sign-in survives the expired-password detour: a user whose password expired (like the
 * seeded `expired` user, but the spec's own) starts at the payroll portal, is sent to the change-expired page during
 * the sign-in, changes the password and lands back in the portal signed in.
 */
import { expect, test } from '@playwright/test';
import { addUser } from '../helpers/admin.js';
import { harnessIdentityService, startPortal, type IdentityService, type Portal } from '../helpers/portal.js';
import { appTookOver, signInPage } from '../helpers/sign-in.js';

let identity: IdentityService;
let portal: Portal;

test.beforeAll(async () => {
  identity = harnessIdentityService();
  portal = await startPortal({ issuer: identity.url, gatewayEnv: identity.env });
});

test.afterAll(async () => {
  await portal?.stop();
});

test('portal → sign-in with an expired password → change it → back in the portal signed in', async ({
  page,
}) => {
  const user = addUser('expired-portal', ['--expired', '--display-name', 'Eve Expired']);
  const form = signInPage(page);

  await page.goto(portal.url);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/login`));
  await appTookOver(page);
  await form.username.fill(user.username);
  await form.password.fill(user.password);
  await form.submit.click();

  // The sign-in stops at the change page; the application's interaction is still its returnUrl.
  await expect(page).toHaveURL(/\/account\/change-expired-password\?returnUrl=%2Finteraction%2F/);
  await expect(page.getByText('Your password has expired. Choose a new one to continue.')).toBeVisible();
  const chosen = 'Renewed for the portal, e2e 9';
  await page.getByLabel('Current password', { exact: true }).fill(user.password);
  await page.getByLabel('New password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm new password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  // The old password again is refused (a message on the new-password field), and the sign-in is still waiting.
  await expect(page.getByLabel('New password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/account\/change-expired-password/);

  await page.getByLabel('New password', { exact: true }).fill(chosen);
  await page.getByLabel('Confirm new password', { exact: true }).fill(chosen);
  await page.getByRole('button', { name: 'Change password' }).click();

  // Back in the portal with the ID token's claims.
  await expect(page).toHaveURL(`${portal.url}/`);
  await expect(page.locator('#status')).toContainText('Signed in as');
  await expect(page.locator('#user-name')).toHaveText('Eve Expired');
});
