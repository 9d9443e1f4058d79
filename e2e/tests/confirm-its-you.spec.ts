/**
 * "Confirm it's you", in place (issue 49 item 1, ADR 0045), in Chromium against the real gateway: a gateway of its own
 * with a short recent-sign-in window (S21, RECENT_SIGN_IN_SECONDS), waited out; a change then opens a modal dialog
 * that says why and asks for the password (and, for an account with two-step verification, the authenticator code
 * after it). A wrong password is an error in the dialog; the right one renews the window, and the refused change is
 * sent again with what was typed — same page, same signed-in person, no navigation. Closing the dialog leaves the
 * change undone and says so in its card, never a raw status text. axe finds nothing on the dialog, light and dark.
 * An account with SMS is asked its own second factor: a code texted only when Send is pressed (the outbox of the
 * suite's gateway, read with the admin CLI, holds what went out).
 */
import { expect, test, type Page } from '@playwright/test';
import { addUser, runAdmin } from '../helpers/admin.js';
import { expectAxeCleanLightAndDark } from '../helpers/axe.js';
import type { DemoUser } from '../helpers/demo-users.js';
import { startIdentityService, type IdentityService } from '../helpers/portal.js';
import { appTookOver } from '../helpers/sign-in.js';
import { freshTotpCode, setUpAuthenticator, twoFactorPages } from '../helpers/two-factor.js';

// Each test waits out the window (twice in the first); the authenticator may wait for the next TOTP step (S17).
test.describe.configure({ timeout: 180_000 });

/** Long enough to sign in and reach the centre on a busy machine, short enough to wait out. */
const WINDOW_SECONDS = 8;
let identity: IdentityService;
const usedSteps = new Set<number>();

test.beforeAll(async () => {
  identity = await startIdentityService({ RECENT_SIGN_IN_SECONDS: String(WINDOW_SECONDS) });
});

test.afterAll(async () => {
  await identity?.stop();
});

async function passwordSignIn(page: Page, user: DemoUser) {
  await page.goto(`${identity.url}/account/login?returnUrl=${encodeURIComponent('/account/')}`);
  await appTookOver(page);
  await page.locator('input[name="username"]').fill(user.username);
  await page.locator('input[name="password"]').fill(user.password);
  await page.locator('form button[type="submit"]').click();
}

/** When the server counts the sign-in as recent until (epoch ms), as the centre reads it; 0 once it no longer does. */
const recentSignInUntil = (page: Page) =>
  page.evaluate(
    async () =>
      ((await (await fetch('/api/Account/SecurityCentreView')).json()) as { recentSignInUntil: number })
        .recentSignInUntil,
  );

/**
 * Waits until the server says the recent-sign-in window has passed (its clock cannot be moved from here): the
 * centre's view stops naming an end of the window. Reading the view does not renew it.
 */
async function waitOutTheWindow(page: Page) {
  const until = await recentSignInUntil(page);
  expect(until - Date.now()).toBeLessThanOrEqual(WINDOW_SECONDS * 1000);
  await expect
    .poll(() => recentSignInUntil(page), {
      message: 'the recent-sign-in window ends',
      timeout: WINDOW_SECONDS * 1000 + 10_000,
      intervals: [500],
    })
    .toBe(0);
}

const isSignedIn = async (page: Page) =>
  (
    await page.evaluate(
      async () => (await (await fetch('/api/Account/User')).json()) as { isAuthenticated: boolean },
    )
  ).isAuthenticated;

/** Marks the document, so a test can tell that no navigation or reload happened since. */
const markDocument = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { stayedHere: boolean }).stayedHere = true;
  });
const stillTheSameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { stayedHere?: boolean }).stayedHere === true);

function confirmDialog(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });
  return {
    dialog,
    password: dialog.getByLabel('Password', { exact: true }),
    code: dialog.getByLabel('Code from your authenticator app'),
    continue: dialog.getByRole('button', { name: 'Continue' }),
    cancel: dialog.getByRole('button', { name: 'Cancel' }),
  };
}

test('a lapsed window asks for the password in a dialog: wrong is an error there, right saves what was typed, same page and session; cancelled says so in the card', async ({
  page,
}) => {
  const user = addUser('confirm', [], identity.env);
  await passwordSignIn(page, user);
  await expect(page).toHaveURL(/\/account\/$/);
  const profile = page.getByTestId('profile');
  await expect(profile).toBeVisible();
  await waitOutTheWindow(page);
  await markDocument(page);

  await profile.getByLabel('Display name').fill('Ada Typed');
  const refused = page.waitForResponse('**/api/Account/UpdateProfile');
  await profile.getByRole('button', { name: 'Save' }).click();
  expect((await refused).status()).toBe(403);
  const confirm = confirmDialog(page);
  await expect(confirm.dialog).toBeVisible();
  await expect(confirm.dialog).toContainText('For your security, confirm it’s you to make this change.');
  await expect(confirm.password).toBeFocused();
  await expectAxeCleanLightAndDark(page);

  await confirm.password.fill('not the password');
  await confirm.continue.click();
  await expect(confirm.dialog).toContainText('The current password is incorrect.');
  await expect(confirm.dialog).toBeVisible();

  await confirm.password.fill(user.password);
  const retried = page.waitForResponse(
    (response) => response.url().endsWith('/api/Account/UpdateProfile') && response.status() === 200,
  );
  await confirm.continue.click();
  await retried;
  await expect(confirm.dialog).toBeHidden();
  await expect(page.getByText('Employee has been updated.')).toBeVisible();
  await expect(profile.getByLabel('Display name')).toHaveValue('Ada Typed');
  await expect(page).toHaveURL(/\/account\/$/);
  expect(await stillTheSameDocument(page)).toBe(true);
  expect(await isSignedIn(page)).toBe(true);
  for (const raw of ['Forbidden', 'Bad Request', 'Internal Server Error'])
    await expect(page.getByText(raw, { exact: true })).toHaveCount(0);

  // Closing the dialog leaves the change undone, and its card says why in words.
  await waitOutTheWindow(page);
  await profile.getByLabel('Display name').fill('Not Confirmed');
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(confirm.dialog).toBeVisible();
  await confirm.cancel.click();
  await expect(confirm.dialog).toBeHidden();
  await expect(profile).toContainText('The change was not made because you did not confirm it’s you.');
  await expect(profile.getByText('Forbidden', { exact: true })).toHaveCount(0);
  await page.reload();
  await expect(profile.getByLabel('Display name')).toHaveValue('Ada Typed');
});

test('an account with two-step verification is asked the authenticator code after the password', async ({
  page,
}) => {
  const user = addUser('confirm2fa', ['--require-2fa'], identity.env);
  await passwordSignIn(page, user);
  await expect(page).toHaveURL(/\/account\/setup-twofactor/);
  const { secret } = await setUpAuthenticator(page, usedSteps);
  await twoFactorPages(page).wizard.finish.click();
  await expect(page).toHaveURL(/\/account\/$/);
  const profile = page.getByTestId('profile');
  await expect(profile).toBeVisible();
  await waitOutTheWindow(page);
  await markDocument(page);

  await profile.getByLabel('Display name').fill('Grace Typed');
  await profile.getByRole('button', { name: 'Save' }).click();
  const confirm = confirmDialog(page);
  await confirm.password.fill(user.password);
  await confirm.continue.click();
  // The password alone is half of this account's sign-in: the code is asked next, nothing saved yet.
  await expect(confirm.code).toBeFocused();
  await expect(page.getByText('Employee has been updated.')).toHaveCount(0);
  await expectAxeCleanLightAndDark(page);

  await confirm.code.fill(await freshTotpCode(secret, usedSteps));
  await confirm.continue.click();
  await expect(confirm.dialog).toBeHidden();
  await expect(page.getByText('Employee has been updated.')).toBeVisible();
  expect(await stillTheSameDocument(page)).toBe(true);
  await page.reload();
  await expect(profile.getByLabel('Display name')).toHaveValue('Grace Typed');
});

/** The texts the suite's gateway kept in its outbox for `phone` (no SMS_WEBHOOK_URL here), newest first. */
function textsTo(phone: string): string[] {
  const out = runAdmin(['outbox', '--to', phone, '--last', '50'], identity.env);
  return out.split(/\n(?=\S)/).filter((entry) => entry.includes('\tsms\t'));
}

test('an account with SMS is texted a code only when Send is pressed in the dialog; that code saves the change', async ({
  page,
}) => {
  const user = addUser('confirmsms', ['--require-2fa'], identity.env);
  const phone = '+447700900456';
  await passwordSignIn(page, user);
  await expect(page).toHaveURL(/\/account\/setup-twofactor/);
  const { wizard } = twoFactorPages(page);
  await page.getByRole('radio', { name: 'Text message (SMS)' }).check();
  await wizard.next.click();
  await page.getByRole('textbox', { name: 'Mobile number' }).fill(phone);
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await expect.poll(() => textsTo(phone).length).toBe(1);
  const setupCode = /\b(\d{6})\b/.exec(textsTo(phone)[0] ?? '')?.[1] ?? '';
  await page.getByLabel('6-digit code from the text message (SMS)').fill(setupCode);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(wizard.codes).toHaveCount(10);
  await wizard.stored.check();
  await wizard.continue.click();
  await wizard.finish.click();
  await expect(page).toHaveURL(/\/account\/$/);
  const profile = page.getByTestId('profile');
  await expect(profile).toBeVisible();
  await waitOutTheWindow(page);
  await markDocument(page);

  await profile.getByLabel('Display name').fill('Texted Typed');
  await profile.getByRole('button', { name: 'Save' }).click();
  const confirm = confirmDialog(page);
  await confirm.password.fill(user.password);
  await confirm.continue.click();
  // The second factor is the account's own: SMS, sent only on the press.
  await expect(confirm.dialog.getByText('We’ll text a code to •••• 0456.')).toBeVisible();
  await expect(confirm.dialog.getByLabel('Code from the text message (SMS)')).toHaveCount(0);
  expect(textsTo(phone)).toHaveLength(1);
  await expectAxeCleanLightAndDark(page);

  await confirm.dialog.getByRole('button', { name: 'Send code' }).click();
  await expect(confirm.dialog.getByText('We sent a code to •••• 0456.')).toBeVisible();
  await expect.poll(() => textsTo(phone).length).toBe(2);
  const code = /\b(\d{6})\b/.exec(textsTo(phone)[0] ?? '')?.[1] ?? '';
  await confirm.dialog.getByLabel('Code from the text message (SMS)').fill(code);
  await confirm.continue.click();
  await expect(confirm.dialog).toBeHidden();
  await expect(page.getByText('Employee has been updated.')).toBeVisible();
  expect(await stillTheSameDocument(page)).toBe(true);
  await page.reload();
  await expect(profile.getByLabel('Display name')).toHaveValue('Texted Typed');
});
