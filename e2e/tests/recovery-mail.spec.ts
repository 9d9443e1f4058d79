/**
 * Forgotten password, end to end through real mail: a gateway of the suite's own sends to a real SMTP listener
 * (smtp-server + mailparser); the browser follows the mailed link as a person would. The common-password list
 * refuses "password123", a good password is accepted, the old one stops working, the new one signs in, the link
 * works once only (S12), and the "your password was changed" notice arrives.
 */
import { expect, test } from '@playwright/test';
import { addUser } from '../helpers/admin.js';
import { linkIn, startMailCatcher, type MailCatcher } from '../helpers/mail.js';
import { startIdentityService, type IdentityService } from '../helpers/portal.js';
import { appTookOver, signInPage } from '../helpers/sign-in.js';

let mail: MailCatcher;
let identity: IdentityService;

test.beforeAll(async () => {
  mail = await startMailCatcher();
  identity = await startIdentityService({ SMTP_URL: mail.url });
});

test.afterAll(async () => {
  await identity?.stop();
  await mail?.close();
});

test('forgot password → the mailed link → a new password → the old one fails, the new one signs in → the link is spent', async ({
  page,
}) => {
  const user = addUser('forgot', [], identity.env);
  const form = signInPage(page);

  // The sign-in page's link leads to the recover page, which answers the same notice for every login (S10).
  await page.goto(`${identity.url}/account/login`);
  await appTookOver(page);
  await form.forgotPassword.click();
  await expect(page).toHaveURL(/\/account\/recover/);
  await page.getByRole('textbox', { name: 'Username or email' }).fill(user.username);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(
    page.getByText('If an account matches, we have sent an email with a link to reset the password.'),
  ).toBeVisible();

  // The mail reaches the SMTP server; its link carries PUBLIC_URL's host (S13), in the text and the HTML part.
  const recovery = await mail.waitFor(user.email, /^Reset your .+ password$/);
  const link = linkIn(recovery, `${identity.url}/account/reset-password?token=`);
  expect(recovery.html).toContain(link.replaceAll('&', '&amp;'));

  await page.goto(link);
  // The token leaves the address bar once read (S16).
  await expect(page).not.toHaveURL(/token=/);
  const newPassword = page.getByLabel('New password', { exact: true });
  const confirm = page.getByLabel('Confirm new password', { exact: true });
  const submit = page.getByRole('button', { name: 'Reset password' });

  // Long enough for the rules, but on the shipped common-password list (S2): the server refuses it.
  await newPassword.fill('password123');
  // The strength meter says it in words (its estimator loads on the first character).
  await expect(page.getByText('Password strength: very weak')).toBeVisible();
  await confirm.fill('password123');
  await submit.click();
  await expect(
    page.getByText('This password is too common or has appeared in a data breach. Choose another.'),
  ).toBeVisible();
  await expect(newPassword).toHaveAttribute('aria-invalid', 'true');

  // A refused password did not spend the link: a good one is accepted, and nobody is signed in by it (S14).
  const chosen = 'Forgotten no more, e2e 7';
  await newPassword.fill(chosen);
  await expect(page.getByText(/^Password strength: (strong|very strong)$/)).toBeVisible();
  await confirm.fill(chosen);
  await submit.click();
  await expect(page.getByText('Password reset successfully.')).toBeVisible();
  const me = await page.evaluate(
    async () => (await (await fetch('/api/Account/User')).json()) as Record<string, unknown>,
  );
  expect(me.isAuthenticated).toBe(false);

  // The notice that the password changed reaches the user too.
  await mail.waitFor(user.email, /^Your .+ password was changed$/);

  // The old password no longer works; the new one does.
  await page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await expect(form.password).toBeVisible();
  await appTookOver(page);
  await form.username.fill(user.username);
  await form.password.fill(user.password);
  await form.submit.click();
  await expect(form.formError).toHaveText('The username or password is incorrect.');
  await form.password.fill(chosen);
  await form.submit.click();
  await expect(page).not.toHaveURL(/\/account\/login/);
  await expect
    .poll(() =>
      page.evaluate(
        async () =>
          ((await (await fetch('/api/Account/User')).json()) as { isAuthenticated: boolean }).isAuthenticated,
      ),
    )
    .toBe(true);

  // The link a second time: spent, so the page sends the browser to link-expired.
  await page.goto(link);
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/error/link-expired`));
  await expect(page.getByText('This link has expired or has already been used.')).toBeVisible();
  // …which offers the way to a new one.
  await page.getByRole('link', { name: 'Ask for a new link' }).click();
  await expect(page).toHaveURL(`${identity.url}/account/recover`);
  await expect(page.getByRole('textbox', { name: 'Username or email' })).toBeVisible();
});
