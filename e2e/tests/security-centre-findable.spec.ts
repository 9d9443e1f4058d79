/**
 * The security centre can be found and read (issue 49, items 4, 9 and 10), in Chromium against the real gateway: a
 * signed-out /account/ goes to sign in and comes back; the signed-in home's card and the header's account menu lead
 * to the centre, by mouse and by keyboard (a disclosure: Enter opens, Escape closes and gives focus back); the centre
 * opens with a summary of the account's protection that changes when a session is signed out, and an in-page menu
 * that moves focus to the section it names (a sticky side menu at 1280 px, a list at the top at 390 px); in German
 * at 320 px every element of every card stays inside its card; with Arabic offered untranslated (English text in a
 * right-to-left layout) the dates read as English. axe finds nothing on the new states, light and dark.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { addUser } from '../helpers/admin.js';
import { expectAxeCleanLightAndDark } from '../helpers/axe.js';
import type { DemoUser } from '../helpers/demo-users.js';
import {
  harnessIdentityService,
  startIdentityServiceWithArabic,
  type IdentityService,
} from '../helpers/portal.js';
import { submitPassword } from '../helpers/sign-in.js';

// Sign-ins, a gateway of its own for Arabic and axe in two colour schemes: more than the default 30 s on a busy CI.
test.describe.configure({ timeout: 120_000 });

/** The parts of the centre and the header this spec reads. */
function centre(page: Page) {
  return {
    heading: page.locator('#security-centre-heading'),
    summary: page.getByTestId('security-summary'),
    facts: page.getByTestId('security-summary-facts'),
    menu: page.getByTestId('security-menu'),
    accountMenu: page.getByTestId('account-menu'),
  };
}

/** Signs in with the password (by field names, so in any language) and lands on `returnUrl`. */
async function signedIn(page: Page, service: IdentityService, user: DemoUser, returnUrl = '/account/') {
  await submitPassword(page, service.url, user, returnUrl);
  await expect(page).toHaveURL(new RegExp(`${returnUrl.replace(/\//g, '\\/')}$`));
}

/** A browser context of its own signed in as `user`: another device in the centre's sessions. */
async function anotherDevice(browser: Browser, service: IdentityService, user: DemoUser) {
  const context = await browser.newContext();
  await signedIn(await context.newPage(), service, user);
  return context;
}

/**
 * Every element and every run of text of every card of the centre whose box leaves its card (inline axis), as
 * readable lines. Text is measured by itself (a Range around each text node): a word too long for its line runs out
 * of a heading whose own box stays the card's width.
 */
function boxesOutsideTheirCards(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const card of document.querySelectorAll<HTMLElement>('.security-centre .hr-card')) {
      const box = card.getBoundingClientRect();
      const outside = (rect: DOMRect) =>
        (rect.width > 0 || rect.height > 0) && (rect.left < box.left - 0.5 || rect.right > box.right + 0.5);
      for (const element of card.querySelectorAll<HTMLElement>('*')) {
        const rect = element.getBoundingClientRect();
        if (outside(rect)) out.push(`<${element.tagName.toLowerCase()} class="${element.className}">`);
      }
      const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const rect = range.getBoundingClientRect();
        if (outside(rect))
          out.push(
            `"${node.textContent.trim().slice(0, 40)}" ${rect.left}–${rect.right} in ${box.left}–${box.right}`,
          );
      }
    }
    return out;
  });
}

test.describe('with the shared gateway', () => {
  // Read in the worker once its system is up, not when the file loads (`playwright test --list`).
  let service: IdentityService;
  test.beforeAll(() => {
    service = harnessIdentityService();
  });

  test('a signed-out /account/ goes to sign in and comes back to the centre', async ({ page }) => {
    const user = addUser('findable-out', [], service.env);
    await page.goto('/account/');
    await expect(page).toHaveURL(/\/account\/login\?returnUrl=%2Faccount%2F$/);
    await page.locator('input[name="username"]').fill(user.username);
    await page.locator('input[name="password"]').fill(user.password);
    await page.locator('form button[type="submit"]').click();
    await expect(page).toHaveURL(/\/account\/$/);
    await expect(centre(page).heading).toHaveText('Security centre');
  });

  test('the home card and the header menu lead to the centre, by mouse and by keyboard', async ({ page }) => {
    const user = addUser('findable-home', [], service.env);
    await signedIn(page, service, user, '/');

    // The signed-in card's link.
    await page.getByTestId('security-centre-link').click();
    await expect(page).toHaveURL(/\/account\/$/);
    await expect(centre(page).heading).toBeVisible();

    // The header's account menu: a disclosure with the person's name.
    await page.goto('/');
    const menu = centre(page).accountMenu;
    const button = menu.getByRole('button');
    await expect(button).toContainText(user.username);
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(menu.getByRole('link')).toHaveCount(0);
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await expect(menu.getByRole('link', { name: 'Security centre' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Sign out' })).toBeVisible();
    await expectAxeCleanLightAndDark(page);
    // Escape closes it and gives focus back to the button.
    await page.keyboard.press('Tab');
    await expect(menu.getByRole('link', { name: 'Security centre' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(button).toBeFocused();
    // Open again and follow the first link with the keyboard; the menu closes behind it.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/account\/$/);
    await expect(centre(page).heading).toBeVisible();
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    // A click outside closes it too.
    await button.click();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await centre(page).heading.click();
    await expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  test('the summary counts what protects the account and changes when a device is signed out', async ({
    page,
    browser,
  }) => {
    const user = addUser('findable-summary', [], service.env);
    const other = await anotherDevice(browser, service, user);
    await signedIn(page, service, user);
    const { summary, facts } = centre(page);
    await expect(facts.getByRole('listitem')).toHaveText([
      'Two-step verification off',
      'no passkeys',
      'signed in on 2 devices',
    ]);
    // Two-step verification off: a warning in words, with a way to the section that fixes it.
    const warning = page.getByTestId('summary-warning-twoStepOff');
    await expect(warning).toContainText('Warning:');
    await warning.getByRole('link', { name: 'Go to Two-step verification' }).click();
    await expect(page.locator('#two-step-heading')).toBeFocused();
    await expect(page).toHaveURL(/#two-step-heading$/);

    // Sign the other device out (through the confirmation, when the centre asks for one): no reload.
    await page.getByTestId('sessions').getByRole('button', { name: 'Sign out everywhere else' }).click();
    const confirmation = page.getByRole('alertdialog');
    const oneDevice = facts.getByRole('listitem').filter({ hasText: 'signed in on 1 device' });
    await expect(confirmation.or(oneDevice)).toBeVisible();
    if (await confirmation.isVisible()) await confirmation.getByRole('button').last().click();
    await expect(oneDevice).toBeVisible();
    await expect(summary).not.toContainText('2 devices');
    await other.close();
  });

  for (const viewport of [
    { name: 'desktop', width: 1280, height: 800, side: true },
    { name: 'phone', width: 390, height: 844, side: false },
  ]) {
    test(`the in-page menu jumps to a section and moves focus there (${viewport.name})`, async ({ page }) => {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      const user = addUser('findable-menu', [], service.env);
      await signedIn(page, service, user);
      const { menu, heading } = centre(page);
      const menuBox = (await menu.boundingBox())!;
      const headingBox = (await heading.boundingBox())!;
      // At 1280 px beside the cards (in the margin before them); at 390 px under the centre's heading.
      if (viewport.side) expect(menuBox.x + menuBox.width).toBeLessThanOrEqual(headingBox.x);
      else expect(menuBox.y).toBeGreaterThan(headingBox.y);

      const sessionsLink = menu.getByRole('link', { name: 'Where you are signed in' });
      await sessionsLink.focus();
      await page.keyboard.press('Enter');
      const target = page.locator('#sessions-heading');
      await expect(target).toBeFocused();
      await expect(target).toBeInViewport();
      await expect(page).toHaveURL(/#sessions-heading$/);
      // Beside the cards the menu stays in view however far the page has scrolled.
      if (viewport.side) await expect(menu.getByRole('list')).toBeInViewport();
      await expectAxeCleanLightAndDark(page);
    });
  }

  test('in German at 320 px every element stays inside its card', async ({ page, context }) => {
    await context.addCookies([
      { name: '.AspNetCore.Culture', value: encodeURIComponent('c=de|uic=de'), url: service.url },
    ]);
    await page.setViewportSize({ width: 320, height: 720 });
    const user = addUser('findable-de', [], service.env);
    await signedIn(page, service, user);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(centre(page).heading).toHaveText('Sicherheitscenter');
    await expect(page.locator('#recovery-codes-heading')).toHaveText('Wiederherstellungscodes');
    expect(await boxesOutsideTheirCards(page)).toEqual([]);
    // Nor does anything else run past the screen's edge (the header's account menu included).
    const outsideTheScreen = await page.evaluate(() =>
      [...document.body.querySelectorAll<HTMLElement>('*')]
        .filter((element) => {
          const rect = element.getBoundingClientRect();
          return rect.width > 1 && (rect.left < -0.5 || rect.right > window.innerWidth + 0.5);
        })
        .map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
    );
    expect(outsideTheScreen).toEqual([]);
    await expectAxeCleanLightAndDark(page);
  });
});

test.describe('with Arabic offered untranslated', () => {
  let arabic: IdentityService;

  test.beforeAll(async () => {
    arabic = await startIdentityServiceWithArabic();
  });

  test.afterAll(async () => {
    await arabic?.stop();
  });

  test('English text in a right-to-left layout gets English dates', async ({ page, context }) => {
    await context.addCookies([
      { name: '.AspNetCore.Culture', value: encodeURIComponent('c=ar|uic=ar'), url: arabic.url },
    ]);
    const user = addUser('findable-ar', [], arabic.env);
    await signedIn(page, arabic, user);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
    await expect(centre(page).heading).toHaveText('Security centre');
    const sessions = page.getByTestId('sessions');
    await expect(sessions).toContainText('Signed in on');
    const text = await page.locator('.security-centre').innerText();
    // No Arabic-Indic or Persian digits, no Arabic letters (an Arabic month name) anywhere in the centre's text.
    expect(text).not.toMatch(/[\u0600-\u06FF]/);
    // The date reads as en-GB's: day, English month abbreviation, year.
    expect(await sessions.innerText()).toMatch(
      /Signed in on \d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sept?|Oct|Nov|Dec) \d{4}/,
    );
    await expectAxeCleanLightAndDark(page);
  });
});
