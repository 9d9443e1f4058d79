import { AxeBuilder } from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { addUser } from '../helpers/admin.js';
import { harnessIdentityService } from '../helpers/portal.js';
import { submitPassword } from '../helpers/sign-in.js';
import { setUpAuthenticator, twoFactorPages } from '../helpers/two-factor.js';

test.describe.configure({ timeout: 180_000 });

test('toast contrast probe', async ({ page }) => {
  const identity = harnessIdentityService();
  const user = addUser('probe', ['--require-2fa'], identity.env);
  await submitPassword(page, identity.url, user);
  await setUpAuthenticator(page, new Set());
  await twoFactorPages(page).wizard.finish.click();
  await expect(page).toHaveURL(/\/account\/$/);
  const codes = page.getByTestId('recovery-codes');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await codes.getByRole('button', { name: 'Create new recovery codes' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Create new codes' }).click();
    await page.evaluate(() => { window.print = () => undefined; });
    await codes.getByRole('button', { name: 'Print codes' }).click();
    const t0 = Date.now();
    console.log(await page.evaluate(() => document.querySelector('[data-sonner-toaster]')?.outerHTML));
    while (Date.now() - t0 < 4000) {
      const { violations } = await new AxeBuilder({ page }).include('section[aria-label="Notifications alt+T"]').withRules(['color-contrast']).analyze();
      const toast = await page.evaluate(() =>
        [...document.querySelectorAll('[data-sonner-toast]')].map((el) => {
          const s = getComputedStyle(el);
          return `${el.getAttribute('data-mounted')}/${el.getAttribute('data-removed')}/${el.getAttribute('data-visible')} op=${s.opacity}`;
        }),
      );
      console.log(scheme, Date.now() - t0, JSON.stringify(toast), violations.map((v) => v.nodes.map((n) => `${n.target.join(' ')} ${n.any[0]?.message}`).join('; ')).join(' | '));
    }
  }
});
