/**
 * The sign-in state machine as a browser meets it: after the password a pending sign-in is sent to its step's page,
 * is not signed in there, and the guard lets it reach that page but no other protected one (ADR 0005).
 */
import { expect, test } from '@playwright/test';
import { addUser } from '../helpers/admin.js';
import { signIn } from '../helpers/sign-in.js';

test('an expired password leads to the change page with the returnUrl kept, not signed in', async ({
  page,
}) => {
  await signIn(page, addUser('expired', ['--expired']), { returnUrl: '/account/' });
  await expect(page).toHaveURL(/\/account\/change-expired-password\?returnUrl=%2Faccount%2F$/);
  const user = await page.evaluate(
    async () => (await (await fetch('/api/Account/User')).json()) as Record<string, unknown>,
  );
  expect(user).toEqual({ isAuthenticated: false, signInStep: '/account/change-expired-password' });
  // The page says so in the house words and asks only for the new password: this sign-in verified the current one.
  await expect(page.getByText('Your password has expired. Choose a new one to continue.')).toBeVisible();
  await expect(page.getByLabel('New password', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Current password', { exact: true })).toHaveCount(0);
  // Another protected page is not part of this sign-in: the guard sends the visitor to access denied.
  await page.goto('/account/select');
  await expect(page).toHaveURL(/\/error\/access-denied\?returnUrl=%2Faccount%2Fselect$/);
});

test('2FA required but not set up leads to the set-up wizard, not signed in', async ({ page }) => {
  await signIn(page, addUser('needs-2fa', ['--require-2fa']), { returnUrl: '/account/' });
  await expect(page).toHaveURL(/\/account\/setup-twofactor\?returnUrl=%2Faccount%2F$/);
  const user = await page.evaluate(
    async () => (await (await fetch('/api/Account/User')).json()) as Record<string, unknown>,
  );
  expect(user).toEqual({ isAuthenticated: false, signInStep: '/account/setup-twofactor' });
});

test('a stranger reaching a step page of nobody’s sign-in is asked to sign in first (issue 43)', async ({
  page,
}) => {
  await page.goto('/account/registerdevice');
  await expect(page).toHaveURL(/\/account\/login\?returnUrl=%2Faccount%2Fregisterdevice$/);
});
