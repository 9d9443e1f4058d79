/**
 * Passkeys (issue 14, ADR 0016) in Chromium with the DevTools virtual authenticator: a platform authenticator
 * (internal transport, user verification, resident keys) makes the browser report one, so a password sign-in offers
 * to register a device; the registered passkey then signs in with no password, back to the payroll portal through
 * OIDC. Skipping is remembered; a device that refuses leaves the page with the registration error and Skip.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { addUser } from '../helpers/admin.js';
import type { DemoUser } from '../helpers/demo-users.js';
import {
  harnessIdentityService,
  startIdentityServiceWithArabic,
  startPortal,
  type IdentityService,
  type Portal,
} from '../helpers/portal.js';
import { appTookOver, signInPage } from '../helpers/sign-in.js';
import { addVirtualAuthenticator } from '../helpers/webauthn.js';

/** The device-offer page's parts. */
function registerDevicePage(page: Page) {
  return {
    heading: page.getByRole('heading', { name: 'Add a passkey' }),
    name: page.getByRole('textbox', { name: 'Passkey name' }),
    register: page.getByRole('button', { name: 'Add passkey' }),
    skip: page.getByRole('button', { name: 'Skip for now' }),
    backToSignIn: page.getByRole('link', { name: 'Back to sign in' }),
    error: page.getByText('There was a problem registering your passkey. Please try again later.'),
  };
}

/** Types a user's password on the sign-in page the browser is at. */
async function passwordSignIn(page: Page, user: DemoUser) {
  await appTookOver(page);
  const form = signInPage(page);
  if (await form.differentUser.isVisible()) await form.differentUser.click();
  await form.username.fill(user.username);
  await form.password.fill(user.password);
  await form.submit.click();
}

async function expectAxeClean(page: Page) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

let identity: IdentityService;
let portal: Portal;

test.beforeAll(async () => {
  identity = harnessIdentityService();
  portal = await startPortal({ issuer: identity.url, gatewayEnv: identity.env });
});

test.afterAll(async () => {
  await portal?.stop();
});

test('password sign-in → offer → register "Work laptop" → sign out → the passkey from autofill, no password → the portal', async ({
  page,
}) => {
  const authenticator = await addVirtualAuthenticator(page);
  const user = addUser('passkey');

  await page.goto(portal.url);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/login`));
  await passwordSignIn(page, user);

  // The browser reported a platform authenticator: the sign-in offers to register this device first.
  const offer = registerDevicePage(page);
  await expect(page).toHaveURL(
    new RegExp(`^${identity.url}/account/registerdevice\\?returnUrl=%2Finteraction%2F`),
  );
  await expect(offer.heading).toBeVisible();
  // Prefilled from the browser and platform, editable.
  await expect(offer.name).toHaveValue(/^Chrome on /);
  await expectAxeClean(page);
  await offer.name.fill('Work laptop');
  await offer.register.click();

  // Registered: the sign-in went on to the portal.
  await expect(page).toHaveURL(`${portal.url}/`);
  await expect(page.locator('#status')).toContainText('Signed in as');
  const [credential] = await authenticator.credentials();
  expect(credential?.isResidentCredential).toBe(true);

  await page.getByRole('link', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(`${portal.url}/`);
  await expect(page.locator('#status')).toHaveText('You are signed out');

  // Signing in again: the username field's autofill list offers the passkey (conditional mediation). Chromium's
  // virtual platform authenticator answers that waiting request as a person picking the passkey from the list
  // would, so nothing is typed and no button is pressed: the passkey alone signs in, back to the portal.
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${portal.url}/`);
  await expect(page.locator('#status')).toContainText('Signed in as');
  // The authenticator signed once more.
  expect((await authenticator.credentials())[0]?.signCount).toBeGreaterThan(0);
});

test('skipping the offer continues the sign-in, and the next sign-in does not ask again', async ({
  page,
}) => {
  await addVirtualAuthenticator(page);
  const user = addUser('passkey-skip');
  await page.goto(`/account/login?returnUrl=${encodeURIComponent('/account/')}`);
  await passwordSignIn(page, user);
  const offer = registerDevicePage(page);
  await expect(offer.heading).toBeVisible();
  await offer.skip.click();
  await expect(page).toHaveURL(/\/account\/$/);

  await page.context().clearCookies();
  await page.goto(`/account/login?returnUrl=${encodeURIComponent('/account/')}`);
  await passwordSignIn(page, user);
  await expect(page).toHaveURL(/\/account\/$/);
  await expect(offer.heading).toHaveCount(0);
});

test('a device that refuses leaves the offer with the registration error, and Skip still works', async ({
  page,
}) => {
  // The authenticator exists (the offer is made) but fails user verification: the ceremony is refused.
  await addVirtualAuthenticator(page, { isUserVerified: false });
  const user = addUser('passkey-refused');
  await page.goto(`/account/login?returnUrl=${encodeURIComponent('/account/')}`);
  await passwordSignIn(page, user);
  const offer = registerDevicePage(page);
  await expect(offer.heading).toBeVisible();
  await offer.register.click();
  await expect(offer.error).toBeVisible();
  await expect(offer.name).toBeEditable();
  await expectAxeClean(page);
  await offer.skip.click();
  await expect(page).toHaveURL(/\/account\/$/);
});

test('a passkey the service does not know ends quietly: the message, Try again, and the way back to the password', async ({
  page,
}) => {
  // A passkey for this site made elsewhere (another service's database, a wiped account): the device has it, the
  // service does not.
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  await cdp.send('WebAuthn.addCredential', {
    authenticatorId,
    credential: {
      credentialId: randomBytes(16).toString('base64'),
      isResidentCredential: true,
      rpId: 'localhost',
      privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
      userHandle: Buffer.from('nobody').toString('base64'),
      signCount: 0,
    },
  });
  await page.goto(`/account/login/secure?returnUrl=${encodeURIComponent('/account/')}`);
  await expect(
    page.getByText('We could not verify you or the passkey you used.', { exact: false }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expectAxeClean(page);
  await page.getByRole('link', { name: 'Sign in with your username instead' }).click();
  await expect(page).toHaveURL(/\/account\/login\?returnUrl=%2Faccount%2F/);
  await appTookOver(page);
  await expect(signInPage(page).password).toBeEditable();
});

test('without a platform authenticator a password sign-in is not offered registration', async ({ page }) => {
  const user = addUser('passkey-none');
  await page.goto(`/account/login?returnUrl=${encodeURIComponent('/account/')}`);
  await passwordSignIn(page, user);
  await expect(page).toHaveURL(/\/account\/$/);
});

test('a signed-in user registers a USB security key from the account, then signs in with it', async ({
  page,
}) => {
  // Only a roaming key: the browser reports no platform authenticator, so the sign-in makes no offer.
  const key = await addVirtualAuthenticator(page, { transport: 'usb' });
  const user = addUser('security-key');
  await page.goto(`/account/login?returnUrl=${encodeURIComponent('/account/')}`);
  await passwordSignIn(page, user);
  await expect(page).toHaveURL(/\/account\/$/);

  // Right after a full sign-in (S21) the account may add a device.
  await page.goto(`/account/registerdevice?returnUrl=${encodeURIComponent('/account/')}`);
  const offer = registerDevicePage(page);
  await offer.name.fill('Blue USB key');
  await offer.register.click();
  await expect(page).toHaveURL(/\/account\/$/);
  expect(await key.credentials()).toHaveLength(1);

  await page.context().clearCookies();
  await page.goto(`/account/login?returnUrl=${encodeURIComponent('/account/')}`);
  await appTookOver(page);
  await page.getByRole('link', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/account\/$/);
  await expect(page.getByText(`You are signed in as`)).toBeVisible();

  // Manage devices: the key is listed with when it was added and last used; rename it, then remove it (S21: the
  // passkey sign-in just now is a recent full sign-in).
  await page.goto(`/account/registerdevice?returnUrl=${encodeURIComponent('/account/')}`);
  const list = page.getByRole('list', { name: 'Your passkeys' });
  await expect(list.getByText('Blue USB key')).toBeVisible();
  await expect(list.getByText(/^Added .* · last used /)).toBeVisible();
  // The offer's card and the list's card stand apart, as a stack's children do.
  const [offerCard, listCard] = await page
    .locator('main .hr-card')
    .evaluateAll((cards) => cards.map((card) => card.getBoundingClientRect()));
  expect(listCard!.top - offerCard!.bottom).toBeGreaterThanOrEqual(16);
  await expectAxeClean(page);
  await page.getByRole('button', { name: 'Rename Blue USB key' }).click();
  await page.getByRole('textbox', { name: 'New name for Blue USB key' }).fill('Spare key');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(list.getByText('Spare key')).toBeVisible();
  // Removal asks first, naming the key (issue 49); Cancel keeps it.
  await page.getByRole('button', { name: 'Remove Spare key' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove the passkey ‘Spare key’?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(list.getByText('Spare key')).toBeVisible();
  await page.getByRole('button', { name: 'Remove Spare key' }).click();
  await confirm.getByRole('button', { name: 'Remove passkey' }).click();
  await expect(page.getByTestId('devices-status')).toHaveText('Removed the passkey ‘Spare key’.');
  await expect(page.getByText('No passkeys yet.')).toBeVisible();
});

test.describe('right to left', () => {
  let rtl: IdentityService;
  test.beforeAll(async () => {
    // A gateway of its own: an RTL language among the demo partner's, without changing the shared harness.
    rtl = await startIdentityServiceWithArabic();
  });
  test.afterAll(async () => {
    await rtl?.stop();
  });

  test('the offer page mirrors and stays axe clean, and the passkey signs in from the mirrored secure page', async ({
    page,
  }) => {
    await page.addInitScript(() => localStorage.setItem('locale', 'ar'));
    await addVirtualAuthenticator(page);
    const user = addUser('passkey-rtl', [], rtl.env);
    await page.goto(`${rtl.url}/account/login?returnUrl=${encodeURIComponent('/account/')}`);
    await passwordSignIn(page, user);
    const offer = registerDevicePage(page);
    await expect(offer.heading).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    // Arabic has no translation yet: the text falls back to en-GB, the layout mirrors.
    expect(await offer.name.evaluate((input) => getComputedStyle(input).direction)).toBe('rtl');
    await expectAxeClean(page);
    await offer.register.click();
    await expect(page).toHaveURL(/\/account\/$/);

    await page.context().clearCookies();
    await page.goto(`${rtl.url}/account/login/secure?returnUrl=${encodeURIComponent('/account/')}`);
    await expect(page).toHaveURL(/\/account\/$/);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  });
});
