/** Issue 3 "The sign-in page" (mfe-login) against the real gateway and the seeded demo users. */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_USERS } from '../helpers/demo-users.js';
import { expectPage } from '../helpers/shell.js';
import { appTookOver, openSignIn, signIn, signInPage } from '../helpers/sign-in.js';
import { watchNetwork } from '../helpers/network.js';

test('signs in as the demo employee and lands on the returnUrl', async ({ page }) => {
  await signIn(page, DEMO_USERS.employee, { returnUrl: '/account/select' });
  await expect(page).toHaveURL(/\/account\/select$/);
  await expectPage(page, 'Select customer');
  await page.goto('/');
  await expect(page.getByText('You are signed in as')).toBeVisible();
});

test('shows every part of the page: labels, remember me, forgotten password; no reCAPTCHA notice without reCAPTCHA', async ({
  page,
}) => {
  await openSignIn(page, '/account/select');
  const form = signInPage(page);
  await expect(form.username).toBeVisible();
  await expect(form.rememberMe).not.toBeChecked();
  await expect(form.forgotPassword).toHaveAttribute(
    'href',
    `/account/recover?returnUrl=${encodeURIComponent('/account/select')}`,
  );
  // The demo partner uses the self-hosted proof-of-work: Google's notice shows only for reCAPTCHA partners
  // (SPEC.md §2; captcha.spec.ts shows it for one).
  await expect(page.getByRole('link', { name: 'Google Privacy Policy', exact: true })).toHaveCount(0);
});

test('warns when caps lock is on, and stops warning when it is off', async ({ page }) => {
  await openSignIn(page);
  const form = signInPage(page);
  // Headless Chromium does not toggle the caps-lock modifier from a key press, so the key events carry it, as a
  // real keyboard's do (KeyboardEventInit.modifierCapsLock).
  await form.password.dispatchEvent('keydown', { key: 'A', modifierCapsLock: true });
  await expect(form.capsLockWarning).toBeVisible();
  // Calm words, read out with the password field.
  await expect(form.capsLockWarning).toHaveText('Caps Lock is on');
  const warningId = await form.capsLockWarning.getAttribute('id');
  await expect(form.password).toHaveAttribute('aria-describedby', new RegExp(`(^| )${warningId}( |$)`));
  await form.password.dispatchEvent('keyup', { key: 'b', modifierCapsLock: false });
  await expect(form.capsLockWarning).toHaveCount(0);
});

/** The username chip a wrong password leaves (issue 43): the username and its "Not you?" button. */
function usernameChip(page: Page) {
  const chip = page.getByRole('group', { name: 'Username or email' });
  return { chip, notYou: chip.getByRole('button', { name: 'Not you?' }) };
}

test('a wrong password: the username becomes a chip, the password is emptied and focused; the right one signs in', async ({
  page,
}) => {
  await openSignIn(page, '/account/select');
  const form = signInPage(page);
  const { chip, notYou } = usernameChip(page);
  await form.username.fill(DEMO_USERS.employee.username);
  await form.password.fill('not-the-password');
  await form.password.press('Enter');
  await expect(form.formError).toHaveText('The username or password is incorrect.');
  await expect(chip).toContainText(DEMO_USERS.employee.username);
  await expect(notYou).toBeVisible();
  await expect(form.username).toHaveCount(0);
  await expect(form.password).toHaveValue('');
  await expect(form.password).toBeFocused();
  // No "Continue as …" line, no second way to change the user.
  await expect(page.getByText(/Continue as/)).toHaveCount(0);
  await expect(form.differentUser).toHaveCount(0);
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);

  // Only the password is typed again.
  await page.keyboard.type(DEMO_USERS.employee.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/account\/select$/);
});

// Not a demo account: its wrong passwords must not count towards the captcha of `employee`, whom later tests sign in
// without one (the answer, and so the chip, is the same for an unknown username).
const OTHER_USERNAME = 'not-a-demo-user';

test('"Not you?" brings back the empty username field, focused, by keyboard; a reload keeps the username editable', async ({
  page,
}) => {
  await openSignIn(page);
  const form = signInPage(page);
  const { chip, notYou } = usernameChip(page);
  await form.username.fill(OTHER_USERNAME);
  await form.password.fill('not-the-password');
  await form.submit.click();
  await expect(notYou).toBeVisible();
  await expect(form.password).toBeFocused();

  // The username is kept for the session: after a reload it fills the field, which stays editable.
  await page.reload();
  await appTookOver(page);
  await expect(form.username).toHaveValue(OTHER_USERNAME);
  await expect(form.username).toBeEditable();
  await expect(chip).toHaveCount(0);

  await form.password.fill('not-the-password');
  await form.submit.click();
  await expect(form.password).toBeFocused();
  // Back from the password field to the chip's button with the keyboard.
  await page.keyboard.press('Shift+Tab');
  await expect(notYou).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(chip).toHaveCount(0);
  await expect(form.username).toHaveValue('');
  await expect(form.username).toBeFocused();
  await expect(form.formError).toHaveCount(0);
});

test('empty fields get field errors from the 400 errors map', async ({ page }) => {
  await openSignIn(page);
  const form = signInPage(page);
  await form.submit.click();
  await expect(form.fieldErrors('Username or email')).toHaveText(['This field is required.']);
  await expect(form.fieldErrors('Password')).toHaveText(['This field is required.']);
  await expect(form.username).toHaveAttribute('aria-invalid', 'true');
});

test('the button shows the loading state while signing in', async ({ page }) => {
  await openSignIn(page);
  const form = signInPage(page);
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/Account/Login', async (route) => {
    await held;
    await route.continue();
  });
  await form.username.fill('employee');
  await form.password.fill('wrong-password');
  await form.submit.click();
  const busy = page.getByRole('button', { name: 'Signing in…' });
  await expect(busy).toBeDisabled();
  release();
  await expect(form.formError).toBeVisible();
  await expect(form.submit).toBeEnabled();
});

test('a timed-out session (400 without errors) brings back the sign-in page with the timed-out message', async ({
  page,
}) => {
  await openSignIn(page, '/account/select');
  const form = signInPage(page);
  // The server's "session timed out" answer, as the protocol defines it (SPEC.md §4).
  await page.route('**/api/Account/Login', (route) =>
    route.fulfill({ status: 400, contentType: 'application/json', body: '{}' }),
  );
  await form.username.fill('employee');
  await form.password.fill('whatever');
  await form.submit.click();
  await expect(page).toHaveURL(`/account/login?returnUrl=${encodeURIComponent('/account/select')}`);
  await expect(form.timedOut).toBeVisible();
});

test('sign-out: /account/logout signs out and /account/loggedout says so', async ({ page }) => {
  await signIn(page, DEMO_USERS.employee);
  await page.goto('/account/logout');
  const confirm = page.getByRole('button', { name: 'Yes, sign me out' });
  await expect(confirm.or(page.getByText('You have signed out.'))).toBeVisible();
  if (await confirm.isVisible()) await confirm.click();
  await expect(page).toHaveURL(/\/account\/loggedout/);
  await expect(page.getByRole('heading', { level: 1, name: 'Signed out' })).toBeVisible();
  await expect(page.getByText('You have signed out.')).toBeVisible();
  await expect(page.getByText(/logged out/i)).toHaveCount(0);
  await page.goto('/account/loggedout?reason=inactivity');
  await expect(page.getByText('You were signed out after a period of inactivity.')).toBeVisible();
  await page.goto('/account/select');
  await expect(page).toHaveURL(/\/account\/login\?returnUrl=%2Faccount%2Fselect$/);
});

test('axe-core finds no violations on the sign-in page', async ({ page }) => {
  await openSignIn(page);
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
});

test('the sign-in page load asks GetPartnerMetaData exactly once (one shared cache entry)', async ({
  page,
}) => {
  const partnerCalls: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/Account\/GetPartnerMetaData/i.test(request.url())) partnerCalls.push(request.url());
  });
  const network = watchNetwork(page);
  await openSignIn(page);
  // The platform, the header and mfe-login's provider switch have all read the partner once the page has settled.
  await expect(page).toHaveTitle('Sign in – Acme Payroll Identity');
  await network.settled();
  expect(partnerCalls).toHaveLength(1);
});
