/**
 * The shared computer: user A signs in to the payroll portal and walks away; once the identity service's idle
 * timeout has passed, user B at the same browser who asks the portal to sign in meets the sign-in page, never a
 * code for A (the OIDC session follows the site session, ADR 0006). A gateway of its own with a one-minute idle
 * timeout, so the wait is real.
 */
import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD } from '../helpers/demo-users.js';
import { appTookOver } from '../helpers/sign-in.js';
import { startIdentityService, startPortal, type IdentityService, type Portal } from '../helpers/portal.js';

let identity: IdentityService;
let portal: Portal;

test.beforeAll(async () => {
  identity = await startIdentityService({ SESSION_IDLE_MINUTES: '1' });
  portal = await startPortal({ issuer: identity.url, gatewayEnv: identity.env });
});

test.afterAll(async () => {
  await portal?.stop();
  await identity?.stop();
});

test('after the idle timeout the next person at the browser signs in as themselves', async ({ page }) => {
  test.setTimeout(180_000);
  const signInAs = async (username: string) => {
    await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/login`));
    await appTookOver(page);
    const differentUser = page.getByRole('button', { name: 'Sign in as a different user' });
    if (await differentUser.isVisible()) await differentUser.click();
    await page.getByRole('textbox', { name: 'Username or email' }).fill(username);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  };

  await page.goto(`${portal.url}/login`);
  await signInAs('employee');
  await expect(page).toHaveURL(`${portal.url}/`);
  await expect(page.locator('#user-name')).toHaveText('Emma Employee');

  // A walks away without signing out. The site session's idle timeout (one minute here) passes.
  await page.waitForTimeout(65_000);

  // B asks the portal to sign in: the identity service asks who is there instead of answering for A.
  await page.goto(`${portal.url}/login`);
  await signInAs('manager');
  // B works for two customers: the sign-in asks which one, as it does for B anywhere (ADR 0009).
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/select`));
  await page.getByRole('option', { name: 'Acme Logistics GmbH' }).click();
  await expect(page).toHaveURL(`${portal.url}/`);
  await expect(page.locator('#user-name')).toHaveText('Max Manager');
  await expect(page.locator('#customer-name')).toHaveText('Acme Logistics GmbH');
});
