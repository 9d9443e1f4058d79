/**
 * Results shown where the person acted (issue 49), in Chromium against the real gateway: the centre's password card
 * has the expired-password page's field (rules marked as one types, the strength meter, Show) and says in the card
 * that the password changed; a saved display name says "Saved" beside the field and the signed-in name changes
 * without a reload; a customer chosen in mfe-tenant shows in the centre's customer card without a reload. axe clean,
 * light and dark, with the results on screen.
 */
import { expect, test, type Page } from '@playwright/test';
import { addUser, runAdmin } from '../helpers/admin.js';
import { expectAxeCleanLightAndDark } from '../helpers/axe.js';
import type { DemoUser } from '../helpers/demo-users.js';
import { submitPassword } from '../helpers/sign-in.js';
import { systemUnderTest } from '../helpers/system.js';

test.describe.configure({ timeout: 120_000 });

/** Marks the document; a reload (a new document) loses the mark. */
async function markDocument(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { stillSameDocument?: boolean }).stillSameDocument = true;
  });
}
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { stillSameDocument?: boolean }).stillSameDocument === true);

async function openCentre(page: Page, user: DemoUser) {
  await submitPassword(page, systemUnderTest().baseUrl, user);
  await expect(page.getByRole('heading', { name: 'Security centre' })).toBeVisible();
}

test('the password card: live rule marks, meter and Show; the result in the card; axe clean', async ({
  page,
}) => {
  const user = addUser('results-password');
  await openCentre(page, user);
  const card = page.getByTestId('password');
  const current = card.getByLabel('Current password', { exact: true });
  const fresh = card.getByLabel('New password', { exact: true });
  const confirm = card.getByLabel('Confirm new password', { exact: true });
  const lengthRule = card.locator('li', { hasText: /at least \d+ characters/ });

  // Rules before typing, none met; marked as one types.
  await expect(card.getByText('Your new password:')).toBeVisible();
  await expect(lengthRule).toHaveAttribute('data-met', 'false');
  await fresh.pressSequentially('Lantern-Orchid-47!');
  await expect(lengthRule).toHaveAttribute('data-met', 'true');
  await expect(card.locator('li[data-met="false"]')).toHaveCount(0);
  // The meter, loaded on the first character.
  await expect(card.getByText(/^Password strength: /)).toBeVisible();

  // Show: the current password has its own button; the new one's reveals both new and confirmation.
  await current.fill(user.password);
  await confirm.fill('Lantern-Orchid-47!');
  await expect(current).toHaveAttribute('type', 'password');
  const [showCurrent, showNew] = [
    card
      .locator('.hr-field', { has: page.getByLabel('Current password', { exact: true }) })
      .getByRole('button', { name: 'Show password' }),
    card
      .locator('.hr-field', { has: page.getByLabel('New password', { exact: true }) })
      .getByRole('button', { name: 'Show password' }),
  ];
  await showCurrent.click();
  await expect(current).toHaveAttribute('type', 'text');
  await showNew.click();
  await expect(fresh).toHaveAttribute('type', 'text');
  await expect(confirm).toHaveAttribute('type', 'text');
  await expect(card.getByRole('button', { name: 'Hide password' })).toHaveCount(2);
  await expectAxeCleanLightAndDark(page);

  // A refusal keeps what was typed, the error under its field.
  await current.fill('not the password');
  await card.getByRole('button', { name: 'Change password' }).click();
  await expect(card.getByText('The current password is incorrect.')).toBeVisible();
  await expect(fresh).toHaveValue('Lantern-Orchid-47!');
  await expect(confirm).toHaveValue('Lantern-Orchid-47!');

  // Done: said in the card, the fields emptied.
  await current.fill(user.password);
  await card.getByRole('button', { name: 'Change password' }).click();
  await expect(card.getByRole('status').filter({ hasText: 'Password changed.' })).toBeVisible();
  await expect(fresh).toHaveValue('');
  await expectAxeCleanLightAndDark(page);
});

test('a saved display name says "Saved" in its card and the signed-in name changes without a reload', async ({
  page,
}) => {
  const user = addUser('results-profile');
  await openCentre(page, user);
  await markDocument(page);
  const card = page.getByTestId('profile');
  const name = `Ada ${user.username}`;
  await card.getByLabel('Display name').fill(name);
  await card.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(card.getByRole('status')).toHaveText('Saved');
  // The person's name outside the card (the signed-in card above the centre) follows at once.
  await expect(page.getByText(`You are signed in as ${name}.`)).toBeVisible();
  expect(await sameDocument(page)).toBe(true);
  // The page as it stays: the toast that also says so leaves after its 2000 ms (judged in platform-offline.spec.ts).
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 5_000 });
  await expectAxeCleanLightAndDark(page);
  // Editing again takes "Saved" back.
  await card.getByLabel('Display name').fill(`${name}!`);
  await expect(card.getByRole('status')).toHaveText('');
});

test('a customer chosen in mfe-tenant shows in the centre’s customer card without a reload', async ({
  page,
}) => {
  const user = addUser('results-customer');
  for (const customer of ['acme-retail', 'acme-logistics'])
    runAdmin(['memberships', 'add', '--username', user.username, '--customer', customer]);
  await submitPassword(page, systemUnderTest().baseUrl, user);
  const options = page.getByRole('listbox', { name: 'Customers' }).getByRole('option');
  // Two customers: the sign-in may ask for one first.
  const centre = page.getByRole('heading', { name: 'Security centre' });
  await expect(centre.or(options.first())).toBeVisible();
  if (await options.first().isVisible()) await options.filter({ hasText: 'Acme Retail Ltd' }).click();
  await expect(centre).toBeVisible();
  const card = page.getByTestId('customer');
  const before = (await card.getByText(/^You are working for /).textContent()) ?? '';
  const other = before.includes('Acme Retail Ltd') ? 'Acme Logistics GmbH' : 'Acme Retail Ltd';

  await markDocument(page);
  await card.getByRole('link', { name: 'Switch customer' }).click();
  await expect(page).toHaveURL(/\/account\/select\?returnUrl=%2Faccount%2F/);
  await options.filter({ hasText: other }).click();
  await expect(page).toHaveURL(/\/account\/$/);
  await expect(card).toContainText(`You are working for ${other}.`);
  expect(await sameDocument(page)).toBe(true);
});
