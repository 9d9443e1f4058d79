/**
 * Issue 17: the captcha in Chromium. After repeated wrong passwords the next sign-in meets the self-hosted
 * proof-of-work challenge; Login is not sent while it runs; ticked with the keyboard it solves, and the sign-in goes
 * through. The dialog is axe clean in light, dark and right to left, and runs under the strict CSP. A challenge whose
 * code does not arrive says so, with Try again. A gateway of its own, so the throttle counters of these attempts never
 * reach other specs.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page, type Route } from '@playwright/test';
import { addUser, runAdmin } from '../helpers/admin.js';
import { startIdentityServiceWithArabic, type IdentityService } from '../helpers/portal.js';
import { recordReports, shellChunkDefining } from '../helpers/shell.js';
import { appTookOver, signInPage } from '../helpers/sign-in.js';

let identity: IdentityService;

test.beforeAll(async () => {
  identity = await startIdentityServiceWithArabic();
});
test.afterAll(async () => {
  await identity?.stop();
});

/** Account API calls in the order the browser sent them (by name), and CSP violations the page reported. */
function watch(page: Page) {
  const calls: string[] = [];
  const violations: string[] = [];
  page.on('request', (request) => {
    const match = /\/api\/Account\/([A-Za-z]+)/.exec(request.url());
    if (match?.[1]) calls.push(match[1]);
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return { calls, violations };
}

/**
 * Three wrong passwords from this browser, then the right one: the challenge shows instead of a sign-in.
 * `beforeChallenge` runs before that last attempt.
 */
async function meetChallenge(
  page: Page,
  username: string,
  password: string,
  beforeChallenge?: () => Promise<unknown>,
) {
  await page.goto(`${identity.url}/account/login?returnUrl=${encodeURIComponent('/account/')}`);
  const form = signInPage(page);
  await expect(form.password).toBeVisible();
  await appTookOver(page);
  await form.username.fill(username);
  for (let i = 0; i < 3; i += 1) {
    await form.password.fill(`wrong password ${i}`);
    const answered = page.waitForResponse((r) => r.url().includes('/api/Account/Login'));
    await form.submit.click();
    await answered;
    await expect(page.getByText('The username or password is incorrect.')).toBeVisible();
    // Issue 43: the username stays as a chip and the password field is emptied for the next try.
    await expect(page.getByRole('button', { name: 'Not you?' })).toBeVisible();
    await expect(form.password).toHaveValue('');
  }
  await form.password.fill(password);
  await beforeChallenge?.();
  await form.submit.click();
  const dialog = page.getByRole('dialog', { name: 'Confirm that you are a person' });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

test('after repeated wrong passwords the challenge shows, Login waits for it, it solves by keyboard and the sign-in goes through', async ({
  page,
}) => {
  const user = addUser('captcha', [], identity.env);
  const { calls, violations } = watch(page);
  const dialog = await meetChallenge(page, user.username, user.password);

  // The widget loads with the challenge, not with the page.
  const checkbox = dialog.getByRole('checkbox', { name: "I'm not a robot" });
  await expect(checkbox).toBeVisible();
  const loginsWhenShown = calls.filter((c) => c === 'Login').length;
  // The server refused the fourth attempt before checking anything; the page did not send it again on its own.
  expect(loginsWhenShown).toBe(4);
  await expect(checkbox).toBeFocused();
  await page.keyboard.press('Space');

  await expect(page).toHaveURL(/\/account\/$/);
  await expect(dialog).toBeHidden();
  // Between the refused Login and the verified challenge no Login went out; then exactly one.
  const afterShown = calls.slice(calls.indexOf('CaptchaChallenge'));
  expect(afterShown.slice(0, afterShown.indexOf('VerifyCaptcha') + 1)).not.toContain('Login');
  expect(afterShown.filter((c) => c === 'Login')).toHaveLength(1);
  expect(violations).toEqual([]);
});

test('Escape closes the challenge without signing in, and the next attempt asks again', async ({ page }) => {
  const user = addUser('captcha-cancel', [], identity.env);
  const { calls } = watch(page);
  const dialog = await meetChallenge(page, user.username, user.password);
  await expect(dialog.getByRole('checkbox', { name: "I'm not a robot" })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  const logins = calls.filter((c) => c === 'Login').length;
  await signInPage(page).submit.click();
  await expect(dialog).toBeVisible();
  expect(calls.filter((c) => c === 'Login').length).toBe(logins + 1);
  await expect(page).toHaveURL(/\/account\/login/);
});

test("the challenge's code does not arrive: the dialog says so, Try again loads it once the network delivers, and the sign-in goes through", async ({
  page,
}) => {
  const user = addUser('captcha-unavailable', [], identity.env);
  const { reports } = recordReports(page);
  const chunk = `**/assets/${shellChunkDefining('CaptchaDialog')}`;
  const fail = (route: Route) => route.abort('internetdisconnected');
  // The connection drops after the sign-in page loaded: the challenge's code, asked for when it shows, never comes.
  const dialog = await meetChallenge(page, user.username, user.password, () => page.route(chunk, fail));
  const tryAgain = dialog.getByRole('button', { name: 'Try again' });
  await expect(dialog.getByText('This part of the site is unavailable. Try again.')).toBeVisible();
  await expect(tryAgain).toBeFocused();
  await expect
    .poll(() => reports.map((r) => `${r.kind} ${r.origin} ${r.message.split(':')[0]}`))
    .toEqual(['boundary shell captcha']);
  await expectNoAxeViolations(page);

  await page.unroute(chunk, fail);
  await tryAgain.click();
  const checkbox = dialog.getByRole('checkbox', { name: "I'm not a robot" });
  await expect(checkbox).toBeVisible();
  await expect(checkbox).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page).toHaveURL(/\/account\/$/);
});

test.describe('accessibility of the challenge (axe-core)', () => {
  for (const variant of ['light', 'dark', 'rtl'] as const) {
    test(`no violations: ${variant}`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: variant === 'dark' ? 'dark' : 'light' });
      if (variant === 'rtl') await page.addInitScript(() => localStorage.setItem('locale', 'ar'));
      const user = addUser(`captcha-${variant}`, [], identity.env);
      const dialog = await meetChallenge(page, user.username, user.password);
      await expect(dialog.getByRole('checkbox', { name: "I'm not a robot" })).toBeVisible();
      if (variant === 'rtl') await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await expect(page.locator('html')).toHaveAttribute('data-theme', variant === 'dark' ? 'dark' : 'light');
      await expectNoAxeViolations(page);
    });
  }
});

test('Recover meets the challenge the same way: solved by keyboard, the request goes on', async ({
  page,
}) => {
  runAdmin(['partners', 'update', '--id', 'demo', '--captcha-when', 'always'], identity.env);
  try {
    const { calls } = watch(page);
    // The gateway keeps partner settings a few seconds in process: a first try may still go through (and then the
    // page shows its neutral notice instead of the form), so each try starts from a fresh page.
    const dialog = page.getByRole('dialog', { name: 'Confirm that you are a person' });
    await expect(async () => {
      await page.goto(`${identity.url}/account/recover`);
      await appTookOver(page);
      await page.getByRole('textbox', { name: 'Username or email' }).fill(`nobody-${Date.now()}@e2e.test`);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await expect(dialog).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 25_000 });
    const box = dialog.getByRole('checkbox', { name: "I'm not a robot" });
    await expect(box).toBeFocused();
    const recovers = calls.filter((c) => c === 'Recover').length;
    await page.keyboard.press('Space');
    await expect(
      page.getByText('If an account matches, we have sent an email with a link to reset the password.'),
    ).toBeVisible();
    expect(calls.filter((c) => c === 'Recover').length).toBe(recovers + 1);
  } finally {
    runAdmin(['partners', 'update', '--id', 'demo', '--captcha-when', 'risk'], identity.env);
  }
});

test('the reCAPTCHA notice with its privacy and terms links shows exactly when the partner uses reCAPTCHA', async ({
  page,
}) => {
  const signInUrl = `${identity.url}/account/login`;
  await page.goto(signInUrl);
  await appTookOver(page);
  await expect(page.getByRole('link', { name: 'Google Privacy Policy', exact: true })).toHaveCount(0);
  // The first load brings no widget: it loads when a challenge shows.
  expect(await page.evaluate(() => customElements.get('altcha-widget') === undefined)).toBe(true);
  const plain = await page.request.get(signInUrl);
  expect(plain.headers()['content-security-policy']).not.toContain('google');

  runAdmin(
    [
      'partners',
      'update',
      '--id',
      'demo',
      '--captcha',
      'recaptcha-v3',
      '--captcha-site-key',
      'e2e-site-key',
      '--captcha-secret',
      'e2e-secret',
    ],
    identity.env,
  );
  try {
    // The gateway keeps partner settings a few seconds in process; a person reloading sees the change.
    await expect(async () => {
      const answer = await page.request.get(signInUrl);
      expect(answer.headers()['content-security-policy']).toContain('https://www.google.com/recaptcha/');
    }).toPass();
    await page.goto(signInUrl);
    await appTookOver(page);
    await expect(page.getByRole('link', { name: 'Google Privacy Policy', exact: true })).toHaveAttribute(
      'href',
      'https://policies.google.com/privacy',
    );
    await expect(page.getByRole('link', { name: 'Google Terms of Service', exact: true })).toHaveAttribute(
      'href',
      'https://policies.google.com/terms',
    );
  } finally {
    runAdmin(['partners', 'update', '--id', 'demo', '--captcha', 'altcha'], identity.env);
  }
});
