/**
 * The second factor as a browser meets it (ADR 0008): the seeded `twofactor` user (2FA required, none set up) is
 * taken through the set-up wizard at sign-in, then signs in with a code computed here from the secret the page
 * showed; a recovery code signs in once and fails the second time; the pages have no axe violations, light and dark.
 *
 * The spec leaves `twofactor` with an authenticator: it runs after sign-in-steps.spec.ts, which needs the user
 * without one, and nothing after it signs in as that user.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_USERS } from '../helpers/demo-users.js';
import { expectPage } from '../helpers/shell.js';
import { openSignIn, signIn, signInPage } from '../helpers/sign-in.js';
import { freshTotpCode, setUpAuthenticator, twoFactorPages } from '../helpers/two-factor.js';

// Six axe runs and a possible wait for the next TOTP step (S17) take longer than the default on a busy machine.
test.describe.configure({ mode: 'serial', timeout: 240_000 });

const usedSteps = new Set<number>();
let secret = '';
let recoveryCodes: string[] = [];

async function expectNoAxeViolations(page: Page, label: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(
      violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `${label} (${scheme})`,
    ).toEqual([]);
  }
}

/** Signs in with the password up to the 2FA page (the sign-in helper waits for a URL outside /account/login). */
async function passwordUpToTwoFactor(page: Page) {
  await page.context().clearCookies();
  await openSignIn(page, '/account/');
  const form = signInPage(page);
  if (await form.differentUser.isVisible()) await form.differentUser.click();
  await form.username.fill(DEMO_USERS.twofactor.username);
  await form.password.fill(DEMO_USERS.twofactor.password);
  await form.submit.click();
  await expect(page).toHaveURL(/\/account\/login\/twofactor\?returnUrl=%2Faccount%2F$/);
}

test('the twofactor user is taken through the set-up wizard at sign-in, then is signed in', async ({
  page,
}) => {
  await signIn(page, DEMO_USERS.twofactor, { returnUrl: '/account/' });
  await expect(page).toHaveURL(/\/account\/setup-twofactor\?returnUrl=%2Faccount%2F$/);
  await expectPage(page, 'Set up two-step verification');
  await expectNoAxeViolations(page, 'wizard: choose');
  const pages = twoFactorPages(page);
  await pages.wizard.next.click();
  await expect(pages.wizard.qrCode).toBeVisible();
  await expect(pages.wizard.secret).toHaveText(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
  await expectNoAxeViolations(page, 'wizard: authenticator');
  await page.getByRole('button', { name: 'Back' }).click();

  ({ secret, codes: recoveryCodes } = await setUpAuthenticator(page, usedSteps));
  expect(recoveryCodes).toHaveLength(10);
  await expectNoAxeViolations(page, 'wizard: done');
  await pages.wizard.finish.click();
  await expect(page).toHaveURL(/\/account\/$/);
  const user: unknown = await page.evaluate(
    async () => (await fetch('/api/Account/User')).json() as Promise<unknown>,
  );
  expect(user).toMatchObject({ isAuthenticated: true, userName: 'twofactor' });
});

test('the next sign-in asks for the authenticator code and accepts one computed from the secret shown', async ({
  page,
}) => {
  expect(secret).not.toBe('');
  await passwordUpToTwoFactor(page);
  await expectPage(page, 'Two-step verification');
  const pages = twoFactorPages(page);
  await expect(pages.authenticatorCode).toBeVisible();
  // SPEC.md §2: the code page says codes ignore spaces and case (issue 49), and the gateway normalises them.
  await expect(page.getByText("Spaces and case don't matter.")).toBeVisible();
  await expectNoAxeViolations(page, '2FA sign-in');
  await pages.authenticatorCode.fill('000000');
  await pages.verify.click();
  await expect(pages.fieldErrors).toHaveText([
    'The code is not valid or has expired. Check it and try again.',
  ]);
  await expectNoAxeViolations(page, '2FA sign-in with an error');
  await pages.authenticatorCode.fill(await freshTotpCode(secret, usedSteps));
  await pages.verify.click();
  await expect(page).toHaveURL(/\/account\/$/);
  const user: unknown = await page.evaluate(
    async () => (await fetch('/api/Account/User')).json() as Promise<unknown>,
  );
  expect(user).toMatchObject({ isAuthenticated: true, userName: 'twofactor' });
});

test('a recovery code signs in once and fails the second time', async ({ page }) => {
  const code = recoveryCodes[0]!;
  for (const attempt of ['first', 'second'] as const) {
    await passwordUpToTwoFactor(page);
    const pages = twoFactorPages(page);
    await pages.useRecoveryCode.click();
    await expectPage(page, 'Sign in with recovery code');
    // Recovery codes have letters: their page says case and spaces do not matter.
    await expect(page.getByText(/spaces, dashes and case don't matter/)).toBeVisible();
    if (attempt === 'first') await expectNoAxeViolations(page, 'recovery-code sign-in');
    await pages.recoveryCode.fill(code.toLowerCase());
    await pages.recoverySubmit.click();
    if (attempt === 'first') {
      await expect(page).toHaveURL(/\/account\/$/);
    } else {
      await expect(pages.fieldErrors).toHaveText([
        'The code is not valid or has expired. Check it and try again.',
      ]);
      await expect(page).toHaveURL(/\/account\/login\/recoverycode/);
    }
  }
});
