/**
 * Issue 4's proof for the offline worker: a new shell build published while a page is open makes the update
 * toast appear (it stays past the 2000 ms of ordinary toasts), Reload loads the new version; and the site opens
 * offline from the worker's cache with the offline notice. Issue 10's proof for toasts on phones and tablets: on a
 * first visit the "ready to open offline" message lies over no link, button or field, in every locale, RTL, light
 * and dark, on four phone screens (one held sideways) and two tablet ones, and shifts nothing (ADR 0031). These need
 * the worker, which the shared config blocks, and a shell they may change, so they run their own gateway over a copy
 * of shell/dist.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import {
  expect,
  test,
  type Browser,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from '@playwright/test';
import {
  DEMO_LANGUAGES_WITH_ARABIC,
  updateDemoPartner,
  waitForPartnerLanguage,
} from '../helpers/partners.js';
import { layoutShiftSoFar, watchLayoutShifts } from '../helpers/layout-shift.js';
import { watchNetwork } from '../helpers/network.js';
import { freePort, REPO, runReleases, startGateway, type RunningGateway } from '../helpers/system.js';

test.use({ serviceWorkers: 'allow' });

const UPDATE_MESSAGE =
  'A new version of Acme Payroll Identity is available, click on reload button to update.';

let gateway: RunningGateway;
let dataDir: string;
let shellDist: string;

test.beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'platform-offline-data-'));
  shellDist = mkdtempSync(path.join(tmpdir(), 'platform-offline-shell-'));
  cpSync(path.join(REPO, 'shell', 'dist'), shellDist, { recursive: true });
  runReleases(['publish-all'], dataDir);
  // startGateway passes the worker's environment on; SHELL_DIST points this gateway at the copy.
  process.env.SHELL_DIST = shellDist;
  try {
    gateway = await startGateway(dataDir, await freePort());
  } finally {
    delete process.env.SHELL_DIST;
  }
});

test.afterAll(async () => {
  await gateway?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(shellDist, { recursive: true, force: true });
});

/** Opens the sign-in page and waits until the offline worker controls it (clients.claim on first install). */
async function openControlled(page: Page) {
  await page.goto(`${gateway.url}/account/login`);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
    timeout: 20_000,
  });
}

/** Publishes a "new build": a changed worker (as a rebuild with changed assets gives) and a marked index.html. */
function publishNewShellBuild(marker: string) {
  const worker = path.join(shellDist, 'sw.js');
  writeFileSync(worker, `${readFileSync(worker, 'utf8')}\n// build ${marker}\n`);
  const index = path.join(shellDist, 'index.html');
  writeFileSync(
    index,
    readFileSync(index, 'utf8').replace('</head>', `<meta name="shell-build" content="${marker}"></head>`),
  );
}

test('a new shell build while the page is open: update toast until acted on, Reload loads it', async ({
  page,
}) => {
  await openControlled(page);
  await expect(page.locator('meta[name="shell-build"]')).toHaveCount(0);

  publishNewShellBuild('2');
  await page.evaluate(async () => {
    await (await navigator.serviceWorker.getRegistration())?.update();
  });

  const toast = page.getByText(UPDATE_MESSAGE);
  await expect(toast).toBeVisible({ timeout: 20_000 });
  // Ordinary toasts leave after 2000 ms; this one waits for the user.
  await page.waitForTimeout(3000);
  await expect(toast).toBeVisible();

  const reloaded = page.waitForEvent('load');
  await page.getByRole('button', { name: 'Reload' }).click();
  await reloaded;
  await expect(page.locator('meta[name="shell-build"]')).toHaveAttribute('content', '2');
  await expect(page.getByText(UPDATE_MESSAGE)).toHaveCount(0);
  // The new worker is the one in control now.
  expect(
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null),
  ).toBeNull();
});

test('the site opens offline from the worker cache and says the network is needed', async ({
  page,
  context,
}) => {
  await openControlled(page);
  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page.getByTestId('offline-notice')).toBeVisible();
    await expect(page.getByTestId('offline-notice')).toContainText('You are offline.');
    // The shell itself rendered (its header with the theme switch), not the browser's offline error page.
    await expect(page.getByTestId('theme-switch')).toBeVisible();
    // Offline the partner's colour may be unknown: the header and the notice still read well.
    const results = await new AxeBuilder({ page })
      .include('[data-testid="partner-header"]')
      .include('[data-testid="offline-notice"]')
      .analyze();
    expect(results.violations).toEqual([]);
  } finally {
    await context.setOffline(false);
  }
  await expect(page.getByTestId('offline-notice')).toHaveCount(0);
});

test('a first visit to a sign-in page installs the worker without a word: no "ready to open offline" mid-sign-in', async ({
  browser,
}) => {
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  const page = await context.newPage();
  const network = watchNetwork(page);
  await openControlled(page);
  // The worker controls the page, so it was installed: a message would have been asked for then, and its toast
  // outlet (a lazy chunk) loaded and drawn by the time the page has settled.
  await network.settled();
  await expect(page.locator(TOASTS)).toHaveCount(0);
  await expect(page.getByText(offlineReadyText('en-GB'))).toHaveCount(0);
  await context.close();
});

test('offline, a reload keeps the partner this host answered last, not the placeholder "Partner"', async ({
  page,
  context,
}) => {
  await openControlled(page);
  await expect(page.getByTestId('partner-name')).toHaveText('Acme Payroll');
  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page.getByTestId('offline-notice')).toBeVisible();
    await expect(page.getByTestId('partner-name')).toHaveText('Acme Payroll');
    await expect(page).toHaveTitle(/ Acme Payroll Identity$/);
  } finally {
    await context.setOffline(false);
  }
});

/** What a toast must never lie over: the page's links, buttons and fields. */
const CONTROLS = 'a, button, input, select, textarea, [role=button]';

/** A toast on any screen: sonner's floating one or a phone's line at the end of the page (ADR 0031). */
const TOASTS = '[data-sonner-toast], [data-inline-toast]';

/** The "ready to open offline" text a visitor reads in `locale` (ar has no shipped text: en-GB's). */
function offlineReadyText(locale: string): string {
  const shipped = ['en-GB', 'en', 'de', 'fr-CA', 'es'].includes(locale) ? locale : 'en-GB';
  const common = JSON.parse(
    readFileSync(path.join(REPO, 'shell', 'src', 'locales', shipped, 'common.json'), 'utf8'),
  ) as { platform: { offline: { ready: string } } };
  return common.platform.offline.ready;
}

/**
 * A first visit (no worker yet) in `locale`, counting layout shifts from the first paint. The "ready to open
 * offline" message shows on the shell's own pages, never in the middle of a sign-in (issue 43): `/error`, a page
 * with links on it, is where these specs meet it.
 */
async function firstVisit(browser: Browser, locale: string, options: BrowserContextOptions) {
  const context = await browser.newContext({ ...options, serviceWorkers: 'allow' });
  await context.addCookies([
    { name: '.AspNetCore.Culture', value: encodeURIComponent(`c=${locale}|uic=${locale}`), url: gateway.url },
  ]);
  await watchLayoutShifts(context);
  const page = await context.newPage();
  await page.goto(`${gateway.url}/error`);
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
  const toast = page.locator(TOASTS).filter({ hasText: offlineReadyText(locale) });
  await expect(toast).toBeVisible({ timeout: 20_000 });
  // A pointer resting on a toast holds its time (sonner's and the phone's own): the checks read it in place however
  // slow a busy machine makes them; the test moves the pointer away before it checks that the toast leaves.
  await toast.hover();
  // sonner's toast slides in: judged where it comes to rest (the same box twice, 100 ms apart).
  let last = '';
  await expect
    .poll(
      async () => {
        const box = JSON.stringify(await toast.boundingBox());
        const still = box === last;
        last = box;
        return still;
      },
      { intervals: [100], timeout: 3_000 },
    )
    .toBe(true);
  return { context, page, toast };
}

/** The visible controls the toast's box overlaps, not counting its own (sonner's close button). */
async function controlsUnder(toast: Locator): Promise<string[]> {
  return toast.evaluate((shown, selector) => {
    const box = shown.getBoundingClientRect();
    const covered: string[] = [];
    for (const control of document.querySelectorAll(selector)) {
      if (shown.contains(control)) continue;
      const r = control.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(control).visibility === 'hidden') continue;
      if (r.left < box.right && r.right > box.left && r.top < box.bottom && r.bottom > box.top) {
        covered.push(`${control.tagName.toLowerCase()} "${(control.textContent ?? '').trim()}"`);
      }
    }
    return covered;
  }, CONTROLS);
}

test.describe('toasts cover no link, button or field, on phones and tablets (issue 10, ADR 0031)', () => {
  test.beforeAll(async () => {
    // A right-to-left language among the partner's, so the mirrored page is checked too.
    updateDemoPartner(['--languages', DEMO_LANGUAGES_WITH_ARABIC, '--allow-untranslated'], dataDir);
    await waitForPartnerLanguage(gateway.url, 'ar');
  });

  const phones = [
    { width: 360, height: 640 },
    { width: 390, height: 664 },
    { width: 390, height: 844 },
    { width: 844, height: 390 },
    // Tablets keep sonner's corner toast: it must lie over nothing on them either.
    { width: 768, height: 1024 },
    { width: 1024, height: 768 },
  ];
  const locales = ['en-GB', 'en', 'de', 'fr-CA', 'es', 'ar'];
  const LEAVES_CHECKED = ['de', 'ar'];
  for (const [p, viewport] of phones.entries()) {
    for (const [l, locale] of locales.entries()) {
      const colorScheme = (p + l) % 2 === 0 ? 'light' : 'dark';
      const size = `${viewport.width}×${viewport.height}`;
      test(`"ready to open offline", first visit, ${size}, ${locale}, ${colorScheme}`, async ({
        browser,
      }) => {
        const { context, page, toast } = await firstVisit(browser, locale, {
          viewport,
          isMobile: true,
          hasTouch: true,
          colorScheme,
        });
        const results = await new AxeBuilder({ page }).include(TOASTS).analyze();
        expect(results.violations).toEqual([]);
        await expect(page.locator('html')).toHaveAttribute('dir', locale === 'ar' ? 'rtl' : 'ltr');
        expect(await controlsUnder(toast)).toEqual([]);
        // It pushed nothing aside or down: no sideways scrolling, and the first visit stays free of layout shifts.
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
        // SPEC.md §9: it leaves after 2000 ms, once nothing holds it. Its timer and its leaving are the same in every
        // language, so they are waited for in two per screen (the longest text, and right to left), one light and one
        // dark; the other four check the shifts while it is shown (issue 54: 2 s a test, 24 tests).
        if (LEAVES_CHECKED.includes(locale)) {
          await page.mouse.move(0, 0);
          await expect(toast).toHaveCount(0, { timeout: 4_000 });
        }
        const cls = await layoutShiftSoFar(page);
        expect(cls).toBeLessThanOrEqual(0.02);
        await context.close();
      });
    }
  }

  for (const locale of ['de', 'ar']) {
    const corner = locale === 'ar' ? 'left' : 'right';
    test(`on a wide screen the toast floats in the bottom ${corner} corner over nothing (${locale})`, async ({
      browser,
    }) => {
      const viewport = { width: 1280, height: 800 };
      const { context, toast } = await firstVisit(browser, locale, { viewport });
      const box = await toast.boundingBox();
      expect(box).not.toBeNull();
      const { x, y, width, height } = box!;
      expect(y + height).toBeGreaterThan(viewport.height - 100);
      if (locale === 'ar') expect(x).toBeLessThan(100);
      else expect(x + width).toBeGreaterThan(viewport.width - 100);
      // The footer's privacy link mirrors too (bottom right in ar, whose body says its text is en-GB), so the corner
      // toast lies over no control in either direction.
      expect(await controlsUnder(toast)).toEqual([]);
      await context.close();
    });
  }

  test('the update prompt on a phone: readable, over nothing, and Reload loads the new build', async ({
    browser,
  }) => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 664 },
      isMobile: true,
      hasTouch: true,
      serviceWorkers: 'allow',
    });
    const page = await context.newPage();
    await openControlled(page);
    publishNewShellBuild('3');
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    const prompt = page.locator(TOASTS).filter({ hasText: UPDATE_MESSAGE });
    await expect(prompt).toBeVisible({ timeout: 20_000 });
    // It waits for the visitor at the end of the page, over no link or field; the click below finds it unobscured.
    await page.waitForTimeout(3000);
    await expect(prompt).toBeVisible();
    expect(await controlsUnder(prompt)).toEqual([]);
    const results = await new AxeBuilder({ page }).include(TOASTS).analyze();
    expect(results.violations).toEqual([]);
    const reloaded = page.waitForEvent('load');
    await prompt.getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    // The copy of the shell now carries both builds' marks; the page is the third build.
    await expect(page.locator('meta[name="shell-build"][content="3"]')).toHaveCount(1);
    await context.close();
  });
});
