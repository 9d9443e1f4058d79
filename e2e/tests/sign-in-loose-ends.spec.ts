/**
 * The sign-in pages' loose ends of issue 49, against the real gateway: the sign-in page names the application a
 * sign-in was started by (the payroll portal) and nothing for the site's own sign-in; a sign-in step's page opened
 * cold does not greet with "Your session had timed out"; after the passkey offer of a sign-in, "Passkey registered"
 * shows; the page as a signed-in person sees it offers Cancel, not the sign-in's Skip and Back.
 */
import { expect, test, type Page } from '@playwright/test';
import { addUser } from '../helpers/admin.js';
import { expectAxeCleanLightAndDark } from '../helpers/axe.js';
import { harnessIdentityService, startPortal, type IdentityService, type Portal } from '../helpers/portal.js';
import { appTookOver, openSignIn, signInPage } from '../helpers/sign-in.js';
import { addVirtualAuthenticator } from '../helpers/webauthn.js';

// Sign-ins, a registration and axe runs in two schemes on a busy two-core machine.
test.describe.configure({ timeout: 120_000 });

let identity: IdentityService;
let portal: Portal;

test.beforeAll(async () => {
  identity = harnessIdentityService();
  portal = await startPortal({ issuer: identity.url, gatewayEnv: identity.env });
});

test.afterAll(async () => {
  await portal?.stop();
});

/** The line under the sign-in page's heading that names the application. */
const applicationLine = (page: Page) => page.getByTestId('login-client');

test('the sign-in page names the application that started the sign-in, and nothing for its own', async ({
  page,
}) => {
  await page.goto(portal.url);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/login\\?returnUrl=%2Finteraction%2F`));
  await appTookOver(page);
  // Right under the heading, as text.
  await expect(applicationLine(page)).toHaveText('to continue to Payroll portal');
  await expect(page.locator('h1 + p')).toHaveText('to continue to Payroll portal');
  await expectAxeCleanLightAndDark(page);

  const view = page.waitForResponse((response) => response.url().includes('/api/Account/LoginView'));
  await openSignIn(page);
  await expect(signInPage(page).password).toBeVisible();
  // LoginView has answered: still no application named.
  expect(await (await view).json()).not.toHaveProperty('clientName');
  await expect(applicationLine(page)).toHaveCount(0);
});

test('the line is in the first HTML and nothing moves when the app takes over, LoginView answering last', async ({
  page,
}) => {
  // Hold the shell's script (the page is the gateway's HTML alone meanwhile), and LoginView until after the takeover.
  let releaseScript!: () => void;
  const scriptHeld = new Promise<void>((resolve) => (releaseScript = resolve));
  await page.route(/\/assets\/main\.[0-9a-f]+\.js$/, async (route) => {
    await scriptHeld;
    await route.continue();
  });
  let answerView!: () => void;
  const viewHeld = new Promise<void>((resolve) => (answerView = resolve));
  await page.route(/\/api\/Account\/LoginView\?returnUrl=%2Finteraction/, async (route) => {
    await viewHeld;
    await route.continue();
  });
  await page.goto(portal.url);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`^${identity.url}/account/login\\?returnUrl=%2Finteraction%2F`));
  const drawn = page.locator('#root[data-first-paint] h1 + p[data-testid="login-client"]');
  await expect(drawn).toHaveText('to continue to Payroll portal');
  const before = await signInPage(page).password.boundingBox();
  releaseScript();
  await appTookOver(page);
  // The app's page keeps the drawn line while LoginView is on its way: the form did not move.
  await expect(page.locator('h1 + p')).toHaveText('to continue to Payroll portal');
  expect(await signInPage(page).password.boundingBox()).toEqual(before);
  answerView();
  await page.waitForResponse((response) => response.url().includes('/api/Account/LoginView'));
  await expect(applicationLine(page)).toHaveText('to continue to Payroll portal');
  expect(await signInPage(page).password.boundingBox()).toEqual(before);
});

test('sign-in step pages opened cold do not say a session timed out; they go to the sign-in page', async ({
  page,
}) => {
  for (const path of ['/account/setup-twofactor', '/account/login/recoverycode']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/account\/login\?returnUrl=/);
    await expect(signInPage(page).password).toBeVisible();
    await appTookOver(page);
    await page.waitForLoadState('networkidle');
    await expect(signInPage(page).timedOut).toHaveCount(0);
  }
  await expectAxeCleanLightAndDark(page);
});

test('"Passkey registered" after the passkey offer of a sign-in; signed in, the page offers Cancel', async ({
  page,
}) => {
  await addVirtualAuthenticator(page);
  const user = addUser('loose-ends-passkey');
  await openSignIn(page, '/account/');
  const form = signInPage(page);
  await form.username.fill(user.username);
  await form.password.fill(user.password);
  await form.submit.click();

  // The browser has a platform authenticator: the sign-in offers a passkey first.
  await expect(page).toHaveURL(/\/account\/registerdevice\?/);
  await expect(page.getByRole('button', { name: 'Skip for now' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to sign in' })).toBeVisible();
  await page.getByRole('button', { name: 'Add passkey' }).click();

  // The sign-in went on, and says the passkey was registered (SPEC.md §8 "device registered").
  await expect(page).not.toHaveURL(/\/account\/registerdevice/);
  await expect(page.locator('[data-sonner-toast]', { hasText: 'Passkey registered' })).toBeVisible();

  // Signed in now, the same page is "add a passkey" of the account: Cancel back, no sign-in to skip or go back to.
  await page.goto(`/account/registerdevice?returnUrl=${encodeURIComponent('/account/')}`);
  const cancel = page.getByRole('link', { name: 'Cancel' });
  await expect(cancel).toBeVisible();
  await expect(page.getByRole('button', { name: 'Skip for now' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Back to sign in' })).toHaveCount(0);
  await expectAxeCleanLightAndDark(page);
  await cancel.click();
  await expect(page).toHaveURL(/\/account\/$/);
});
