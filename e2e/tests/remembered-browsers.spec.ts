/**
 * Remembered browsers in the security centre (issue 43, ADR 0036), in Chromium as a person uses them: a user with
 * the authenticator app signs in ticking "remember this browser", opens /account/, finds this browser listed
 * (browser and system, where, when, "This browser"), forgets it, signs out, and at the next sign-in is asked for
 * the second factor again although the browser still holds its cookie. The forgetting is mailed to a real SMTP
 * listener; the section has no axe violations, light and dark.
 */
import { expect, test, type Page } from '@playwright/test';
import { addUser, runAdmin } from '../helpers/admin.js';
import { expectAxeCleanLightAndDark } from '../helpers/axe.js';
import type { DemoUser } from '../helpers/demo-users.js';
import { startMailCatcher, type MailCatcher } from '../helpers/mail.js';
import { startIdentityService, type IdentityService } from '../helpers/portal.js';
import { submitPassword } from '../helpers/sign-in.js';
import { freshTotpCode, setUpAuthenticator, twoFactorPages } from '../helpers/two-factor.js';

// Three sign-ins with the authenticator may each wait for the next TOTP step (S17); axe runs twice.
test.describe.configure({ timeout: 180_000 });

let mail: MailCatcher;
let identity: IdentityService;
const usedSteps = new Set<number>();

test.beforeAll(async () => {
  mail = await startMailCatcher();
  identity = await startIdentityService({ SMTP_URL: mail.url });
});

test.afterAll(async () => {
  await identity?.stop();
  await mail?.close();
});

async function passwordSignIn(page: Page, user: DemoUser) {
  await submitPassword(page, identity.url, user);
}

async function signOut(page: Page) {
  await page.getByRole('link', { name: 'Sign out', exact: true }).click();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(/\/account\/loggedout/);
}

test('remembered at sign-in → listed as this browser → forgotten (mailed) → the next sign-in asks for the second factor', async ({
  page,
}) => {
  runAdmin(['partners', 'add', '--id', 'remember-rb', '--name', 'Remember Co'], identity.env);
  runAdmin(
    ['partners', 'update', '--id', 'remember-rb', '--remember-two-factor-browser', 'true'],
    identity.env,
  );
  const user = addUser('remembered', ['--require-2fa', '--partner', 'remember-rb'], identity.env);

  // The required set-up gives the user the authenticator app.
  await passwordSignIn(page, user);
  await expect(page).toHaveURL(/\/account\/setup-twofactor/);
  const { secret } = await setUpAuthenticator(page, usedSteps);
  await twoFactorPages(page).wizard.finish.click();
  await expect(page).toHaveURL(/\/account\/$/);
  const section = page.getByTestId('remembered-browsers');
  await expect(section).toContainText('No browser is remembered for your account.');
  await signOut(page);

  // Signing in with the code, ticking "remember this browser".
  await passwordSignIn(page, user);
  await expect(page).toHaveURL(/\/account\/login\/twofactor/);
  const pages = twoFactorPages(page);
  await pages.authenticatorCode.fill(await freshTotpCode(secret, usedSteps));
  await page
    .getByRole('checkbox', { name: 'Remember this browser for 30 days (don’t use on a shared computer)' })
    .check();
  await pages.verify.click();
  await expect(page).toHaveURL(/\/account\/$/);

  // The security centre lists this browser: browser and system, where, when, and that it is this one.
  await expect(page.getByRole('heading', { name: 'Remembered browsers' })).toBeVisible();
  const rows = section.getByTestId('remembered-browser');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('Chrome on Linux');
  await expect(rows).toContainText('(This browser)');
  await expect(rows).toContainText(/Remembered on .+ from (127\.0\.0\.0\/24|::1)/);
  await expect(rows).toContainText('Not used yet');
  await expect(section.getByRole('button', { name: 'Forget all browsers' })).toBeVisible();
  await expectAxeCleanLightAndDark(page);

  // Forget it: a toast, the empty list, and a mail.
  await section.getByRole('button', { name: 'Forget this browser' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Forget browser' }).click();
  await expect(page.getByText('The browser has been forgotten')).toBeVisible();
  await expect(rows).toHaveCount(0);
  await expect(section).toContainText('No browser is remembered for your account.');
  await mail.waitFor(user.email, /^Security settings changed/);
  expect(
    mail.received.some((m) => m.text.includes('A browser remembered for your account was forgotten')),
  ).toBe(true);

  // Signed out and in again: the browser still holds its cookie, yet the second factor is asked for.
  await signOut(page);
  expect((await page.context().cookies()).some((c) => c.name.endsWith('idp.2fa'))).toBe(true);
  await passwordSignIn(page, user);
  await expect(page).toHaveURL(/\/account\/login\/twofactor/);
  await pages.authenticatorCode.fill(await freshTotpCode(secret, usedSteps));
  await pages.verify.click();
  await expect(page).toHaveURL(/\/account\/$/);
  await expect(rows).toHaveCount(0);
});
