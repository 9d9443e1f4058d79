/**
 * The recovery pages as a browser meets them: an expired password is changed on its page during the sign-in, which
 * then goes on to its returnUrl signed in; the recover page answers the same neutral notice for any login.
 */
import { expect, test } from '@playwright/test';
import { addUser, runAdmin } from '../helpers/admin.js';
import { signIn } from '../helpers/sign-in.js';

test('an expired password is changed on its page and the sign-in ends at the returnUrl', async ({ page }) => {
  const user = addUser('expired', ['--expired']);
  await signIn(page, user, { returnUrl: '/account/' });
  await expect(page).toHaveURL(/\/account\/change-expired-password\?returnUrl=%2Faccount%2F$/);
  await expect(page.getByText('Your password has expired. Choose a new one to continue.')).toBeVisible();
  const newPassword = 'Brand-new passphrase for e2e 42';
  await page.getByLabel('Current password', { exact: true }).fill(user.password);
  await page.getByLabel('New password', { exact: true }).fill('short');
  await expect(page.getByText('Password must be at least 8 characters.')).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password', { exact: true }).fill(`${newPassword}x`);
  await expect(page.getByText('Passwords must match.')).toBeVisible();
  await page.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page).toHaveURL(/\/account\/$/);
  const me = await page.evaluate(
    async () => (await (await fetch('/api/Account/User')).json()) as Record<string, unknown>,
  );
  expect(me.isAuthenticated).toBe(true);
});

test('the recover page gives the same neutral notice for an unknown login', async ({ page }) => {
  await page.goto('/account/recover');
  await page.getByRole('textbox', { name: 'Username or e-mail' }).fill(`nobody-${Date.now()}@e2e.test`);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(
    page.getByText('If an account matches, we have sent an e-mail with a link to reset the password.'),
  ).toBeVisible();
});

test('link-expired offers a new link that keeps the returnUrl', async ({ page }) => {
  await page.goto(`/error/link-expired?returnUrl=${encodeURIComponent('/account/')}`);
  await expect(page.getByText('This link has expired or has already been used.')).toBeVisible();
  await page.getByRole('link', { name: 'Ask for a new link' }).click();
  await expect(page).toHaveURL(/\/account\/recover\?returnUrl=%2Faccount%2F$/);
  await expect(page.getByRole('textbox', { name: 'Username or e-mail' })).toBeVisible();
});

test("a partner's password policy set with the admin CLI is the one the change page applies as the user types", async ({
  page,
}) => {
  const partner = `policy-${Date.now().toString(36)}`;
  runAdmin(['partners', 'add', '--id', partner, '--name', 'Policy Partner']);
  runAdmin([
    'partners',
    'update',
    '--id',
    partner,
    '--password-min-length',
    '12',
    '--password-require-classes',
    'true',
    '--password-max-repeat',
    '2',
  ]);
  const user = addUser('expired-policy', ['--expired', '--partner', partner]);
  await signIn(page, user, { returnUrl: '/account/' });
  await expect(page).toHaveURL(/\/account\/change-expired-password/);
  await page.getByLabel('New password', { exact: true }).fill('aaabbbcccd');
  await expect(page.getByText('Password must be at least 12 characters.')).toBeVisible();
  await expect(
    page.getByText(
      'Must have at least one upper case character, one lower case character, one number and one special character.',
    ),
  ).toBeVisible();
  await expect(page.getByText('Must not contain more than 2 consecutive characters.')).toBeVisible();
  // A password that meets the partner's rules clears their messages.
  await page.getByLabel('Current password', { exact: true }).fill(user.password);
  await page.getByLabel('New password', { exact: true }).fill('Fine-Pass-42x');
  await expect(page.getByText('Password must be at least 12 characters.')).toHaveCount(0);
  await expect(page.getByText('Must not contain more than 2 consecutive characters.')).toHaveCount(0);
});
