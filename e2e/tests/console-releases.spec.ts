/**
 * The releases page of the operators' console (issue 51, "Proof"), in Chromium against this worker's gateway: the
 * demo release manager signs in with a code from the authenticator app, opens /admin/releases and, each change
 * confirmed in a dialog (and "Confirm it's you" if the gateway asks), starts a 50 % canary of a new build of
 * mfe-login (a real rspack build: helpers/variant-builds.ts). Two browsers whose bucket cookies fall in different
 * halves then load different mfe-login versions on /account/login; the release manager promotes the canary (both
 * halves get it) and rolls back (both get the earlier one again); the history shows each change with the actor
 * `releasemanager`. axe finds nothing on the page in en-GB, light and dark, nor right to left (Arabic, which the demo
 * partner offers for the test) in dark.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { expectAxeCleanLightAndDark } from '../helpers/axe.js';
import {
  mfeLoginVersionsLoaded,
  releaseHistory,
  releasesPage,
  restoreRelease,
  said,
  servedTo,
  signInWithCode,
  withConfirmItsYou,
} from '../helpers/console.js';
import { CONSOLE_USERS } from '../helpers/demo-users.js';
import {
  DEMO_LANGUAGES,
  DEMO_LANGUAGES_WITH_ARABIC,
  updateDemoPartner,
  waitForPartnerLanguage,
} from '../helpers/partners.js';
import { systemUnderTest } from '../helpers/system.js';
import { publishVariant } from '../helpers/variant-builds.js';

// One operator's browser through every test, in order: each builds on the change before it.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const manager = CONSOLE_USERS.releasemanager;
/** A bucket in the canary's half at 50 % (buckets below the share get the canary), and one outside it. */
const CANARY_BUCKET = 10;
const ACTIVE_BUCKET = 90;
const REASON = 'e2e: the new build to half the browsers';

let context: BrowserContext;
let page: Page;
/** mfe-login's active version before the spec, and the new build's. */
let earlier = '';
let newBuild = '';

test.beforeAll(async ({ browser }) => {
  // The new build may have to be built first (rspack, once per run).
  test.setTimeout(180_000);
  earlier = await servedTo(ACTIVE_BUCKET, 'mfe-login');
  newBuild = await publishVariant('new');
  expect(newBuild).not.toBe(earlier);
  context = await browser.newContext();
  page = await context.newPage();
});

test.afterAll(async () => {
  await context?.close();
  // The next spec files of this worker find mfe-login as it was.
  if (earlier) await restoreRelease('mfe-login', earlier);
});

/** The mfe-login versions a fresh browser whose bucket cookie is `bucket` loads on /account/login. */
async function versionsLoadedIn(browser: Browser, bucket: number): Promise<string[]> {
  const other = await browser.newContext();
  try {
    await other.addCookies([{ name: 'idp.bucket', value: String(bucket), url: systemUnderTest().baseUrl }]);
    const loaded = await mfeLoginVersionsLoaded(await other.newPage());
    return loaded;
  } finally {
    await other.close();
  }
}

test('the release manager signs in with a code and opens the releases page', async () => {
  await signInWithCode(page, manager, { returnUrl: '/admin/releases' });
  const releases = releasesPage(page);
  await expect(releases.heading).toBeVisible();
  await expect(releases.active('mfe-login')).toHaveText(earlier);
  await expect(releases.canary('mfe-login')).toHaveText('No canary');
  // The new build is among the published versions.
  // The versions table's row (the health table may name the same version too, once it served pages).
  await expect(
    page.getByTestId('versions-mfe-login').getByRole('rowheader', { name: newBuild }),
  ).toBeVisible();
  await expectAxeCleanLightAndDark(page);
});

test('a 50 % canary of the new build: browsers in different buckets load different versions', async ({
  browser,
}) => {
  const releases = releasesPage(page);
  await withConfirmItsYou(
    page,
    manager,
    async () => {
      await releases.startCanary('mfe-login').click();
      const { dialog } = releases;
      await expect(dialog.root).toBeVisible();
      await dialog.version.selectOption(newBuild);
      await dialog.share.fill('50');
      await dialog.reason.fill(REASON);
      await expect(dialog.root).toContainText(
        said`${'mfe-login'} ${newBuild} will be served to 50% of browsers`,
      );
      await dialog.confirm('Start the canary').click();
    },
    releases
      .result('mfe-login')
      .getByText(said`${'mfe-login'} ${newBuild} is now served to 50% of browsers.`),
  );
  await expect(releases.dialog.root).toBeHidden();
  await expect(releases.canary('mfe-login')).toContainText(said`${newBuild} for 50% of browsers`);
  // Live within 3 s (one store, one registry revision).
  await expect.poll(() => servedTo(CANARY_BUCKET, 'mfe-login'), { timeout: 3000 }).toBe(newBuild);
  expect(await servedTo(ACTIVE_BUCKET, 'mfe-login')).toBe(earlier);
  expect(await versionsLoadedIn(browser, CANARY_BUCKET)).toEqual([newBuild]);
  expect(await versionsLoadedIn(browser, ACTIVE_BUCKET)).toEqual([earlier]);
});

test('promoted, the new build is what both halves load', async ({ browser }) => {
  const releases = releasesPage(page);
  await withConfirmItsYou(
    page,
    manager,
    async () => {
      await releases.promote('mfe-login').click();
      await expect(releases.dialog.root).toBeVisible();
      await releases.dialog.version.selectOption(newBuild);
      await releases.dialog.confirm('Promote').click();
    },
    releases.result('mfe-login').getByText(said`${'mfe-login'} ${newBuild} is now the active version.`),
  );
  await expect(releases.active('mfe-login')).toHaveText(newBuild);
  await expect(releases.canary('mfe-login')).toHaveText('No canary');
  await expect.poll(() => servedTo(ACTIVE_BUCKET, 'mfe-login'), { timeout: 3000 }).toBe(newBuild);
  expect(await servedTo(CANARY_BUCKET, 'mfe-login')).toBe(newBuild);
  expect(await versionsLoadedIn(browser, ACTIVE_BUCKET)).toEqual([newBuild]);
});

test('rolled back, both halves load the earlier version again', async ({ browser }) => {
  const releases = releasesPage(page);
  await withConfirmItsYou(
    page,
    manager,
    async () => {
      await releases.rollBack('mfe-login').click();
      await expect(releases.dialog.root).toBeVisible();
      await expect(releases.dialog.root).toContainText(said`from ${newBuild} to ${earlier}`);
      await releases.dialog.confirm('Roll back').click();
    },
    releases.result('mfe-login').getByText(said`${'mfe-login'} has been rolled back.`),
  );
  await expect(releases.active('mfe-login')).toHaveText(earlier);
  await expect.poll(() => servedTo(ACTIVE_BUCKET, 'mfe-login'), { timeout: 3000 }).toBe(earlier);
  expect(await servedTo(CANARY_BUCKET, 'mfe-login')).toBe(earlier);
  expect(await versionsLoadedIn(browser, CANARY_BUCKET)).toEqual([earlier]);
});

test('the history shows the canary, the promotion and the roll-back, each by releasemanager', async () => {
  const events = await releaseHistory(page);
  const ours = events.filter((event) => event.actor === manager.username);
  // Newest first.
  expect(ours.map(({ action, version, percent }) => ({ action, version, percent }))).toEqual([
    { action: 'rolledBack', version: earlier, percent: null },
    { action: 'promoted', version: newBuild, percent: null },
    { action: 'canaryStarted', version: newBuild, percent: 50 },
  ]);
  expect(ours[2]!.reason).toBe(REASON);
  // The page shows them too, each with its actor.
  const releases = releasesPage(page);
  await expect(releases.history).toBeVisible();
  const byManager = (action: string) =>
    releases.events(action).filter({ hasText: said`By ${manager.username}` });
  await expect(byManager('rolledBack')).toContainText([said`${'mfe-login'} rolled back to ${earlier}`]);
  await expect(byManager('promoted')).toContainText([said`${'mfe-login'} ${newBuild} promoted to active`]);
  await expect(byManager('canaryStarted')).toContainText([
    said`Canary of ${'mfe-login'} ${newBuild} started at 50%`,
  ]);
  await expect(byManager('canaryStarted')).toContainText([said`Reason: ${REASON}`]);
});

test('axe finds nothing on the releases page right to left, light and dark', async () => {
  const { baseUrl, dataDir } = systemUnderTest();
  updateDemoPartner(['--languages', DEMO_LANGUAGES_WITH_ARABIC, '--allow-untranslated'], dataDir);
  try {
    await waitForPartnerLanguage(baseUrl, 'ar');
    await context.addCookies([
      { name: '.AspNetCore.Culture', value: encodeURIComponent('c=ar|uic=ar'), url: baseUrl },
    ]);
    await page.evaluate(() => localStorage.setItem('locale', 'ar'));
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(releasesPage(page).card('mfe-login')).toBeVisible();
    await expectAxeCleanLightAndDark(page);
  } finally {
    await page.evaluate(() => localStorage.removeItem('locale'));
    updateDemoPartner(['--languages', DEMO_LANGUAGES], dataDir);
    await waitForPartnerLanguage(baseUrl, 'ar', false);
  }
});
