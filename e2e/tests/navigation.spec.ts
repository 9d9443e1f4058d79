/** SPEC.md §2 navigation behaviour: a progress bar (no spinner) during navigation, and the scroll rules. */
import { expect, test } from '@playwright/test';
import { expectPage, openPage, progressBar } from '../helpers/shell.js';

test('a progress bar without spinner runs while a navigation loads, and goes away after', async ({
  page,
}) => {
  await openPage(page, '/');
  // Slow the guard's User call down so the navigation is visibly in progress.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/Account/User**', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await expect(progressBar(page)).toBeVisible();
  await expect(page.locator('.hr-progress [class*="spinner"], .hr-progress svg')).toHaveCount(0);
  release();
  await expectPage(page, 'Sign in');
  await expect(progressBar(page)).toHaveCount(0);
});

test('a hash link scrolls smoothly to its element; "#" scrolls to the top', async ({ page }) => {
  await page.setViewportSize({ width: 1000, height: 600 });
  await openPage(page, '/');
  const target = page.locator('#help');
  // Every animation frame's scroll position: an instant jump shows two values, a smooth scroll many.
  await page.evaluate(() => {
    const positions: number[] = [];
    (window as unknown as { positions: number[] }).positions = positions;
    const sample = () => {
      positions.push(window.scrollY);
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  await page.getByRole('link', { name: 'Help with signing in', exact: true }).click();
  await expect(page).toHaveURL(/#help$/);
  await expect.poll(async () => Math.abs(Math.round((await target.boundingBox())?.y ?? 999))).toBeLessThan(5);
  const settled = await page.evaluate(() => window.scrollY);
  expect(settled).toBeGreaterThan(300);
  const positions = await page.evaluate(() => (window as unknown as { positions: number[] }).positions);
  const between = new Set(positions.filter((y) => y > 0 && y < settled));
  expect(between.size, 'intermediate scroll positions of a smooth scroll').toBeGreaterThan(2);

  await page.locator('#help').getByRole('link', { name: 'Back to top' }).click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test('a path change scrolls to the top', async ({ page }) => {
  await page.setViewportSize({ width: 1000, height: 600 });
  await openPage(page, '/');
  await page.getByRole('link', { name: 'Help with signing in', exact: true }).click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
  await page.locator('#help').getByRole('link', { name: 'Recover your account' }).click();
  await expectPage(page, 'Recover your account');
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});
