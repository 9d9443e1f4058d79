/**
 * Issue 4's proof for the offline worker: a new shell build published while a page is open makes the update
 * toast appear (it stays past the 2000 ms of ordinary toasts), Reload loads the new version; and the site opens
 * offline from the worker's cache with the offline notice. These need the worker, which the shared config
 * blocks, and a shell they may change, so they run their own gateway over a copy of shell/dist.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
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

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the "ready to open offline" toast on a phone sits above the footer and reads well (${colorScheme})`, async ({
    browser,
  }) => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      colorScheme,
      serviceWorkers: 'allow',
    });
    const page = await context.newPage();
    await page.goto(`${gateway.url}/account/login`);
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'ready to open offline' });
    await expect(toast).toBeVisible({ timeout: 20_000 });
    // The toast slides in from the bottom edge: judged once it has arrived.
    const clearOfFooter = async () => {
      const footer = await page.locator('footer').boundingBox();
      const box = await toast.boundingBox();
      return Boolean(box && footer && box.y + box.height <= footer.y);
    };
    await expect.poll(clearOfFooter, { intervals: [100], timeout: 1_500 }).toBe(true);
    const results = await new AxeBuilder({ page }).include('[data-sonner-toaster]').analyze();
    expect(results.violations).toEqual([]);
    await context.close();
  });
}
