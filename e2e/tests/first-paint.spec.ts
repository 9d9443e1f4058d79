/**
 * The sign-in page paints from the gateway's first HTML (docs/adr/0007-sign-in-first-paint.md): readable and
 * typeable without JavaScript, taken over by the app without losing what was typed or moving anything, and
 * branded on a phone.
 */
import { expect, test } from '@playwright/test';
import { DEMO_LANGUAGES, updateDemoPartner, waitForPartnerLanguage } from '../helpers/partners.js';
import { appTookOver, signInPage } from '../helpers/sign-in.js';
import { DEMO_USERS } from '../helpers/demo-users.js';
import { layoutShiftSoFar, watchLayoutShifts } from '../helpers/layout-shift.js';
import { watchNetwork } from '../helpers/network.js';
import { systemUnderTest } from '../helpers/system.js';

const PARTNER = 'Acme Payroll';

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('/account/login shows the partner, the heading and a form that takes typing', async ({ page }) => {
    await page.goto('/account/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(page.getByTestId('brand-band')).toHaveText(PARTNER);
    const form = signInPage(page);
    await expect(form.username).toBeFocused();
    await form.username.fill('employee');
    await form.password.fill('typed before any script');
    await expect(form.username).toHaveValue('employee');
    await expect(form.rememberMe).toBeVisible();
    await expect(form.submit).toBeVisible();
    await expect(form.forgotPassword).toBeVisible();
  });

  test('a native submit never puts the password in the address', async ({ page }) => {
    await page.goto('/account/login');
    const form = signInPage(page);
    await form.username.fill('employee');
    await form.password.fill('secret-value');
    await form.submit.click();
    await expect(page).toHaveURL(/\/account\/login$/);
    expect(page.url()).not.toContain('secret-value');
  });
});

test('what is typed before the app takes over is kept, and signs in', async ({ page }) => {
  // Hold the shell's script until the visitor has typed: the page is the gateway's HTML alone meanwhile.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/main\.[0-9a-f]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  // `commit`: the deferred script holds DOMContentLoaded back, but the page is already there to type in.
  await page.goto('/account/login', { waitUntil: 'commit' });
  const form = signInPage(page);
  const user = DEMO_USERS.employee;
  await form.username.fill(user.username);
  await form.password.fill(user.password);
  await expect(page.locator('#root[data-first-paint]')).toHaveCount(1);
  const before = await form.password.boundingBox();
  release();
  await appTookOver(page);
  // Nothing moved: Chromium's CLS does not count nodes that were replaced, so compare the field's place itself.
  expect(await form.password.boundingBox()).toEqual(before);
  await expect(form.username).toHaveValue(user.username);
  await expect(form.password).toHaveValue(user.password);
  await expect(form.password).toBeFocused();
  // The app's own state holds the values: submitting signs in.
  await form.submit.click();
  await expect(page).not.toHaveURL(/\/account\/login/);
});

test('Enter pressed before the app takes over signs in once it has, without a reload', async ({ page }) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/main\.[0-9a-f]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/account/login')
      posts.push(request.url());
  });
  await page.goto(`/account/login?returnUrl=${encodeURIComponent('/account/')}`, { waitUntil: 'commit' });
  const form = signInPage(page);
  const user = DEMO_USERS.employee;
  await form.username.fill(user.username);
  await form.password.fill(user.password);
  await form.password.press('Enter');
  // Held: still the drawn page with what was typed, no plain post that would reload it without the password.
  await expect(page.locator('html[data-held-submit="0"]')).toHaveCount(1);
  await expect(form.password).toHaveValue(user.password);
  release();
  await expect(page).toHaveURL(/\/account\/$/);
  await expect(page.getByText('You are signed in as')).toBeVisible();
  expect(posts).toEqual([]);
});

for (const [device, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test(`the takeover shifts nothing on a ${device} (CLS ≤ 0.02 in Chromium)`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await watchLayoutShifts(page);
    const network = watchNetwork(page);
    await page.goto('/account/login');
    await appTookOver(page);
    await expect(page.getByTestId('theme-switch')).toBeVisible();
    // Whatever arrives late (fonts, the logo, lazy chunks) has arrived and been laid out.
    await network.settled();
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const cls = await layoutShiftSoFar(page);
    expect(cls).toBeLessThanOrEqual(0.02);
  });
}

test("the app's scripts are asked for only once the drawn page is on screen (its first contentful paint)", async ({
  page,
}) => {
  // Three loads: before the loader waited for the paint to be reported, a script went out before it in most loads.
  for (let load = 0; load < 3; load += 1) {
    await page.goto('/account/login');
    await appTookOver(page);
    const timing = await page.evaluate(() => ({
      firstContentfulPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => /\/assets\/[\w.-]+\.js$/.test(entry.name))
        .map((entry) => entry.startTime),
    }));
    expect(timing.firstContentfulPaint).toBeDefined();
    expect(timing.scripts.length).toBeGreaterThan(0);
    expect(Math.min(...timing.scripts)).toBeGreaterThanOrEqual(timing.firstContentfulPaint!);
  }
});

test('a partner without a logo gets no logo request', async ({ page }) => {
  const logoRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('GetPartnerLogo')) logoRequests.push(request.url());
  });
  await page.goto('/account/login');
  await appTookOver(page);
  await expect(page.getByTestId('theme-switch')).toBeVisible();
  await expect(page.getByTestId('brand-band')).toHaveText(PARTNER);
  expect(logoRequests).toEqual([]);
});

test.describe('on a phone (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test.beforeAll(async () => {
    // An RTL language among the partner's, so the mirrored layout is checked too.
    updateDemoPartner(
      ['--languages', `${DEMO_LANGUAGES},ar:العربية`, '--allow-untranslated'],
      systemUnderTest().dataDir,
    );
    await waitForPartnerLanguage(systemUnderTest().baseUrl, 'ar');
  });
  test.afterAll(async () => {
    updateDemoPartner(['--languages', DEMO_LANGUAGES], systemUnderTest().dataDir);
    await waitForPartnerLanguage(systemUnderTest().baseUrl, 'ar', false);
  });

  for (const locale of ['en-GB', 'en', 'de', 'fr-CA', 'es', 'ar']) {
    test(`${locale}: the brand shows above the form and nothing scrolls sideways`, async ({
      page,
      context,
    }) => {
      await context.addCookies([
        {
          name: '.AspNetCore.Culture',
          value: encodeURIComponent(`c=${locale}|uic=${locale}`),
          url: systemUnderTest().baseUrl,
        },
      ]);
      const formAt: Record<string, number | undefined> = {};
      for (const phase of ['first paint', 'app'] as const) {
        if (phase === 'first paint') {
          await page.route(/\/assets\/main\.[0-9a-f]+\.js$/, (route) => route.abort());
          await page.goto('/account/login');
          await expect(page.locator('#root[data-first-paint]')).toHaveCount(1);
        } else {
          await page.unroute(/\/assets\/main\.[0-9a-f]+\.js$/);
          await page.goto('/account/login');
          await appTookOver(page);
          await expect(page.getByTestId('theme-switch')).toBeVisible();
        }
        await expect(page.locator('html')).toHaveAttribute('lang', locale);
        await expect(page.locator('html')).toHaveAttribute('dir', locale === 'ar' ? 'rtl' : 'ltr');
        const brand = page.getByTestId('brand-band');
        await expect(brand).toBeVisible();
        await expect(brand).toHaveText(PARTNER);
        const brandBox = await brand.boundingBox();
        const formBox = await page.locator('form').boundingBox();
        expect(brandBox && formBox && brandBox.y + brandBox.height <= formBox.y, phase).toBe(true);
        formAt[phase] = formBox?.y;
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `${phase}: horizontal overflow`).toBeLessThanOrEqual(0);
      }
      // The header's controls arrive with the app into the row kept for them: the form stays where it was.
      expect(formAt.app).toBe(formAt['first paint']);
    });
  }
});
