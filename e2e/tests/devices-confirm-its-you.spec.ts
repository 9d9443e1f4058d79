/**
 * "Confirm it's you" on mfe-devices' passkey page (issue 49 item 1, ADR 0045; S21), in Chromium against the real
 * gateway: a gateway of its own with a short recent-sign-in window (RECENT_SIGN_IN_SECONDS), waited out, as
 * confirm-its-you.spec.ts does for the security centre. Renaming a passkey is then refused (403
 * `recentSignInRequired`) and the page asks in a modal dialog — not "Sign in again", which would end the session —
 * for the password; once confirmed, the rename is sent again with the name typed and lands, on the same page and in
 * the same signed-in session. Closing the dialog leaves the passkey as it was and the card says so in words.
 */
import { expect, test, type Page } from '@playwright/test';
import { addUser } from '../helpers/admin.js';
import { expectAxeCleanLightAndDark } from '../helpers/axe.js';
import type { DemoUser } from '../helpers/demo-users.js';
import { startIdentityService, type IdentityService } from '../helpers/portal.js';
import { appTookOver } from '../helpers/sign-in.js';

// Each test waits out the window once or twice.
test.describe.configure({ timeout: 180_000 });

/** Long enough to sign in on a busy machine, short enough to wait out. */
const WINDOW_SECONDS = 8;
let identity: IdentityService;

test.beforeAll(async () => {
  identity = await startIdentityService({ RECENT_SIGN_IN_SECONDS: String(WINDOW_SECONDS) });
});

test.afterAll(async () => {
  await identity?.stop();
});

/** A virtual platform authenticator (CDP WebAuthn domain), so the sign-in offers to add a passkey. */
async function platformAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
}

/**
 * Signs in with the password and adds the passkey "Work laptop" at the sign-in's offer (a step of the sign-in: no
 * recent-sign-in question there), then opens the passkey page as a signed-in person.
 */
async function signInWithAPasskey(page: Page, user: DemoUser) {
  await page.goto(`${identity.url}/account/login?returnUrl=${encodeURIComponent('/account/')}`);
  await appTookOver(page);
  await page.locator('input[name="username"]').fill(user.username);
  await page.locator('input[name="password"]').fill(user.password);
  await page.locator('form button[type="submit"]').click();
  await expect(page).toHaveURL(/\/account\/registerdevice\?/);
  await page.getByRole('textbox', { name: 'Passkey name' }).fill('Work laptop');
  await page.getByRole('button', { name: 'Add passkey' }).click();
  await expect(page).toHaveURL(/\/account\/$/);
  await page.goto(`${identity.url}/account/registerdevice?returnUrl=${encodeURIComponent('/account/')}`);
  await expect(passkeyList(page).getByText('Work laptop')).toBeVisible();
}

const passkeyList = (page: Page) => page.getByRole('list', { name: 'Your passkeys' });

/** Waits until the server's recent-sign-in window has passed (its clock cannot be moved from here). */
async function waitOutTheWindow(page: Page) {
  const until = await page.evaluate(
    async () =>
      ((await (await fetch('/api/Account/SecurityCentreView')).json()) as { recentSignInUntil: number })
        .recentSignInUntil,
  );
  expect(until - Date.now()).toBeLessThanOrEqual(WINDOW_SECONDS * 1000);
  await page.waitForTimeout(Math.max(0, until - Date.now()) + 1_000);
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
    continue: dialog.getByRole('button', { name: 'Continue' }),
    cancel: dialog.getByRole('button', { name: 'Cancel' }),
  };
}

test('S21: with a lapsed window, renaming a passkey asks for the password in place; the rename lands and the page stays', async ({
  page,
}) => {
  const credentials = await platformAuthenticator(page);
  const user = addUser('devices-confirm', [], identity.env);
  await signInWithAPasskey(page, user);
  expect(await credentials()).toHaveLength(1);
  await waitOutTheWindow(page);
  await markDocument(page);

  const list = passkeyList(page);
  await list.getByRole('button', { name: 'Rename Work laptop' }).click();
  await list.getByLabel('New name for Work laptop').fill('Old laptop');
  const refused = page.waitForResponse('**/api/Account/RenameDevice');
  await list.getByRole('button', { name: 'Save name' }).click();
  expect((await refused).status()).toBe(403);

  const confirm = confirmDialog(page);
  await expect(confirm.dialog).toBeVisible();
  await expect(confirm.dialog).toContainText(
    'For your security, confirm it’s you before you change your passkeys.',
  );
  await expect(confirm.password).toBeFocused();
  await expect(page.getByRole('button', { name: 'Sign in again' })).toHaveCount(0);
  await expectAxeCleanLightAndDark(page);

  await confirm.password.fill(user.password);
  const renamed = page.waitForResponse(
    (response) => response.url().endsWith('/api/Account/RenameDevice') && response.status() === 200,
  );
  await confirm.continue.click();
  await renamed;
  await expect(confirm.dialog).toBeHidden();
  await expect(list.getByText('Old laptop')).toBeVisible();
  await expect(page.getByTestId('devices-status')).toHaveText(
    'Saved: the passkey is now called ‘Old laptop’.',
  );
  await expect(page).toHaveURL(/\/account\/registerdevice\?returnUrl=%2Faccount%2F$/);
  expect(await stillTheSameDocument(page)).toBe(true);
  expect(await isSignedIn(page)).toBe(true);
  for (const raw of ['Forbidden', 'Bad Request', 'Internal Server Error'])
    await expect(page.getByText(raw, { exact: true })).toHaveCount(0);

  // The rename is the server's, not only the page's.
  await page.reload();
  await expect(passkeyList(page).getByText('Old laptop')).toBeVisible();
});

test('S21: closing the dialog leaves the passkey as it was, and the card says why in words', async ({
  page,
}) => {
  await platformAuthenticator(page);
  const user = addUser('devices-cancel', [], identity.env);
  await signInWithAPasskey(page, user);
  await waitOutTheWindow(page);

  const list = passkeyList(page);
  await list.getByRole('button', { name: 'Remove Work laptop' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove passkey' }).click();
  const confirm = confirmDialog(page);
  await expect(confirm.dialog).toBeVisible();
  await confirm.cancel.click();
  await expect(confirm.dialog).toBeHidden();
  await expect(page.getByText('The change was not made because you did not confirm it’s you.')).toBeVisible();
  await expect(page.getByText('Forbidden', { exact: true })).toHaveCount(0);
  await page.reload();
  await expect(passkeyList(page).getByText('Work laptop')).toBeVisible();
});
