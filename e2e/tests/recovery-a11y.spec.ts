/**
 * The recovery pages in other languages and for assistive technology: the live rule messages and the strength meter
 * in German and on a right-to-left page, and axe-core on the recover, reset and change-expired pages in light and
 * dark. The shared harness has no SMTP_URL, so the reset link is read from the dev outbox with `admin outbox`, as a
 * person trying the demo would.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { addUser, runAdmin } from '../helpers/admin.js';
import { startIdentityServiceWithArabic, type IdentityService } from '../helpers/portal.js';
import { signIn } from '../helpers/sign-in.js';

/**
 * Asks for a reset link on the recover page and reads it from the dev outbox (newest first); on the harness's gateway
 * unless `identity` names another.
 */
async function resetLinkFor(page: Page, email: string, identity?: IdentityService): Promise<string> {
  await page.goto(`${identity?.url ?? ''}/account/recover`);
  await page.locator('input[name="username"]').fill(email);
  await page.locator('form button[type="submit"]').click();
  let link = '';
  await expect
    .poll(() => {
      link =
        /https?:\/\/\S+\/account\/reset-password\?token=[\w-]+/.exec(
          runAdmin(['outbox', '--to', email], identity?.env),
        )?.[0] ?? '';
      return link;
    })
    .not.toBe('');
  return link;
}

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

test('German: the expired-password page shows every rule live, the strength meter and the mismatch in German', async ({
  page,
}) => {
  const user = addUser('expired-de', ['--expired']);
  await signIn(page, user, { returnUrl: '/account/' });
  await expect(page).toHaveURL(/\/account\/change-expired-password/);
  // The person switches to German on the change page; the sign-in waits there.
  await page.evaluate(() => localStorage.setItem('locale', 'de'));
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  const newPassword = page.getByLabel('Neues Passwort', { exact: true });
  // The rules are listed before anything is typed, in German, and marked as the person types.
  const minLength = page
    .getByRole('listitem')
    .filter({ hasText: 'Das Passwort muss mindestens 8 Zeichen lang sein.' });
  await expect(minLength).toBeVisible();
  await expect(minLength).toContainText('Nicht erfüllt:');
  await newPassword.fill('kurz');
  await expect(minLength).toHaveAttribute('data-met', 'false');
  await expect(page.getByText(/^Passwortstärke: (sehr )?schwach$/)).toBeVisible();
  await newPassword.fill('Ein langer Satz als Passwort 42');
  await expect(minLength).toHaveAttribute('data-met', 'true');
  await expect(minLength).toContainText('Erfüllt:');
  await page.getByLabel('Neues Passwort bestätigen', { exact: true }).fill('Ein anderer Satz');
  await expect(page.getByText('Die Passwörter müssen übereinstimmen.')).toBeVisible();
});

test.describe('right to left', () => {
  let identity: IdentityService;
  test.beforeAll(async () => {
    // A gateway of its own: an RTL language among the demo partner's, without changing the shared harness.
    identity = await startIdentityServiceWithArabic();
  });
  test.afterAll(async () => {
    await identity?.stop();
  });

  test('the reset page from the outbox link mirrors, and its rules still speak as the user types', async ({
    page,
  }) => {
    await page.addInitScript(() => localStorage.setItem('locale', 'ar'));
    const user = addUser('reset-rtl', [], identity.env);
    const link = await resetLinkFor(page, user.email, identity);
    await page.goto(link);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    // Arabic has no translation yet: the text falls back to en-GB, the layout mirrors.
    const newPassword = page.getByLabel('New password', { exact: true });
    await newPassword.fill('short');
    await expect(page.getByText('Password must be at least 8 characters.')).toBeVisible();
    await expect(page.getByText(/^Password strength: (very )?weak$/)).toBeVisible();
    await page.getByLabel('Confirm new password', { exact: true }).fill('shorter');
    await expect(page.getByText('Passwords must match.')).toBeVisible();
    // The fields and their messages run right to left.
    expect(await newPassword.evaluate((input) => getComputedStyle(input).direction)).toBe('rtl');
    await expectNoAxeViolations(page);
  });
});

test.describe('accessibility of the recovery pages (axe-core)', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`recover, reset (with rule messages) and change-expired: no violations, ${scheme}`, async ({
      page,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      const user = addUser(`a11y-${scheme}`);

      const link = await resetLinkFor(page, user.email);
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
      await expect(page.getByText(/^If an account matches/)).toBeVisible();
      await expectNoAxeViolations(page);

      await page.goto(link);
      await page.getByLabel('New password', { exact: true }).fill('aaa');
      await expect(page.getByText('Password must be at least 8 characters.')).toBeVisible();
      await expect(page.getByText(/^Password strength: (very )?weak$/)).toBeVisible();
      await expectNoAxeViolations(page);

      const expired = addUser(`a11y-expired-${scheme}`, ['--expired']);
      await signIn(page, expired, { returnUrl: '/account/' });
      await expect(page).toHaveURL(/\/account\/change-expired-password/);
      await page.getByLabel('New password', { exact: true }).fill('Strong enough passphrase here');
      await page.getByLabel('Confirm new password', { exact: true }).fill('different');
      await expect(page.getByText('Passwords must match.')).toBeVisible();
      await expect(page.getByText(/^Password strength: /)).toBeVisible();
      await expectNoAxeViolations(page);
    });
  }
});
