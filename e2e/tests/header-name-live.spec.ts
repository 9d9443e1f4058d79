/**
 * The header's account menu names the person by the live User query (issue 49 "live data"), in Chromium against the
 * real gateway: a display name saved in the security centre shows in the header at once, with no navigation or
 * reload, as it does in the centre's own card.
 */
import { expect, test } from '@playwright/test';
import { addUser } from '../helpers/admin.js';
import { harnessIdentityService } from '../helpers/portal.js';
import { submitPassword } from '../helpers/sign-in.js';

test('a display name saved in the security centre shows in the header menu at once, same document', async ({
  page,
}) => {
  const identity = harnessIdentityService();
  const user = addUser('header-name', [], identity.env);
  await submitPassword(page, identity.url, user, '/account/');
  await expect(page).toHaveURL(/\/account\/$/);
  const menuButton = page.getByTestId('account-menu').getByRole('button');
  await expect(menuButton).toBeVisible();
  await page.evaluate(() => {
    (window as unknown as { stayedHere: boolean }).stayedHere = true;
  });

  const profile = page.getByTestId('profile');
  await profile.getByLabel('Display name').fill('Ada Header');
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Employee has been updated.')).toBeVisible();
  await expect(menuButton).toContainText('Ada Header');
  expect(await page.evaluate(() => (window as unknown as { stayedHere?: boolean }).stayedHere === true)).toBe(
    true,
  );
});
