/**
 * The recovery pages as a browser meets them: an expired password is changed on its page during the sign-in, which
 * then goes on to its returnUrl signed in; the recover page answers the same neutral notice for any login.
 */
import { expect, test, type Page } from '@playwright/test';
import { addUser, runAdmin } from '../helpers/admin.js';
import { signIn } from '../helpers/sign-in.js';

/** The checklist line of one password rule under the new password (its `data-met` says whether it is met). */
const rule = (page: Page, text: string) => page.getByRole('listitem').filter({ hasText: text });

test('an expired password is changed on its page, without the current password again, and the sign-in ends at the returnUrl (ADR 0039)', async ({
  page,
}) => {
  const user = addUser('expired', ['--expired']);
  await signIn(page, user, { returnUrl: '/account/' });
  await expect(page).toHaveURL(/\/account\/change-expired-password\?returnUrl=%2Faccount%2F$/);
  await expect(page.getByText('Your password has expired. Choose a new one to continue.')).toBeVisible();
  // The password typed a moment ago is not asked again; the rules are listed before anything is typed.
  await expect(page.getByLabel('Current password', { exact: true })).toHaveCount(0);
  const minLength = rule(page, 'Password must be at least 8 characters.');
  await expect(minLength).toBeVisible();
  await expect(minLength).toHaveAttribute('data-met', 'false');
  const newPassword = 'Brand-new passphrase for e2e 42';
  await page.getByLabel('New password', { exact: true }).fill('short');
  await expect(minLength).toHaveAttribute('data-met', 'false');
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await expect(minLength).toHaveAttribute('data-met', 'true');
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
  await page.getByRole('textbox', { name: 'Username or email' }).fill(`nobody-${Date.now()}@e2e.test`);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(
    page.getByText('If an account matches, we have sent an email with a link to reset the password.'),
  ).toBeVisible();
});

test('link-expired offers a new link that keeps the returnUrl', async ({ page }) => {
  await page.goto(`/error/link-expired?returnUrl=${encodeURIComponent('/account/')}`);
  await expect(page.getByText('This link has expired or has already been used.')).toBeVisible();
  await page.getByRole('link', { name: 'Ask for a new link' }).click();
  await expect(page).toHaveURL(/\/account\/recover\?returnUrl=%2Faccount%2F$/);
  await expect(page.getByRole('textbox', { name: 'Username or email' })).toBeVisible();
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
  // The partner's rules are listed before anything is typed, and marked as the user types.
  const classes =
    'Must have at least one upper case character, one lower case character, one number and one special character.';
  const rules = [
    rule(page, 'Password must be at least 12 characters.'),
    rule(page, classes),
    rule(page, 'Must not contain more than 2 consecutive characters.'),
  ];
  for (const line of rules) await expect(line).toHaveAttribute('data-met', 'false');
  await page.getByLabel('New password', { exact: true }).fill('aaabbbcccd');
  for (const line of rules) await expect(line).toHaveAttribute('data-met', 'false');
  // A submit lists the failing rules under "Password does not meet the requirements.", and sends nothing.
  await page.getByLabel('Confirm new password', { exact: true }).fill('aaabbbcccd');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password does not meet the requirements.')).toBeVisible();
  await expect(page.getByLabel('New password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  // A password that meets the partner's rules marks them met and clears the messages.
  await page.getByLabel('New password', { exact: true }).fill('Fine-Pass-42x');
  for (const line of rules) await expect(line).toHaveAttribute('data-met', 'true');
  await expect(page.getByText('Password does not meet the requirements.')).toHaveCount(0);
});
