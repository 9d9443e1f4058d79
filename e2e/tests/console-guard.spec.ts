/**
 * The canary guard (issue 51, "Proof"), in Chromium against a real gateway: a deliberately broken build of mfe-login
 * (a real rspack build whose pages throw while rendering: helpers/variant-builds.ts) runs as a 50 % canary with a
 * small minimum sample set with the releases CLI. Real page loads of /account/login by a browser in the canary's
 * half (each shows the remote's fallback and reports the render error) reach the minimum sample, and without one
 * more load the guard ends the canary: the history shows `canaryEndedByGuard` by `guard` with its figures, the
 * releases page shows it, and the next load in that bucket gets the active version, whose sign-in form works. A
 * healthy new build under the same load and the same settings is left running.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  consoleCall,
  releaseHistory,
  releasesPage,
  restoreRelease,
  said,
  servedTo,
  signInWithCode,
} from '../helpers/console.js';
import { CONSOLE_USERS } from '../helpers/demo-users.js';
import { remoteUnavailable } from '../helpers/shell.js';
import { appTookOver, signInPage } from '../helpers/sign-in.js';
import { runReleases, systemUnderTest } from '../helpers/system.js';
import { publishVariant } from '../helpers/variant-builds.js';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

/** The guard's minimum sample for the test (the default, 100, would take minutes of page loads here). */
const MIN_PAGE_LOADS = 8;
/** The federation manifest of an mfe-login version, as a page asks for it (the version is the first group). */
const MFE_LOGIN_MANIFEST = /\/remotes\/mfe-login\/([^/]+)\/mf-manifest\.json$/;
/** A bucket inside a 50 % canary (buckets below the share get the canary). */
const CANARY_BUCKET = 10;
const ACTIVE_BUCKET = 90;
const manager = CONSOLE_USERS.releasemanager;
/** How often the guard of this worker's gateway judges canaries (the gateway's default CANARY_GUARD_INTERVAL_MS). */
const GUARD_INTERVAL_MS = 5000;

let active = '';
let broken = '';
let healthy = '';
/** The release manager's console, to read the releases and the history as the page does. */
let operator: Page;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  const { dataDir } = systemUnderTest();
  active = await servedTo(ACTIVE_BUCKET, 'mfe-login');
  [broken, healthy] = [await publishVariant('broken'), await publishVariant('new')];
  runReleases(['guard', 'mfe-login', '--min-page-loads', String(MIN_PAGE_LOADS)], dataDir);
  operator = await (await browser.newContext()).newPage();
  await signInWithCode(operator, manager, { returnUrl: '/admin/releases' });
});

test.afterAll(async () => {
  await operator?.context().close();
  if (active) await restoreRelease('mfe-login', active);
  // The default guard again for the next spec files of this worker.
  runReleases(['guard', 'mfe-login', '--min-page-loads', '100'], systemUnderTest().dataDir);
});

/** Starts a 50 % canary of `version` with the CLI; resolves once the canary's bucket is served it. */
async function canaryAtHalf(version: string) {
  runReleases(['canary', 'mfe-login', version, '50'], systemUnderTest().dataDir);
  await expect.poll(() => servedTo(CANARY_BUCKET, 'mfe-login'), { timeout: 3000 }).toBe(version);
}

/**
 * `count` page loads of /account/login by a browser in the canary's bucket, each in a fresh tab until the page is
 * done: the fallback of a page that threw (and its report sent), or the sign-in form of a healthy build.
 *
 * A page load is counted when its page is served, before the browser asks which versions to load: once the last
 * load of the minimum sample is counted, the guard may end the broken canary before that same page asks, and the
 * page then gets the active version (seen once in CI, when a count flush and a guard check both fell within the
 * 0.8 s between the page and its manifest). So the last broken load may be given the active version, which must
 * then work; every other one must be the broken version's fallback.
 */
async function loadsInCanaryBucket(browser: Browser, count: number, expectBroken: boolean) {
  const context = await browser.newContext();
  try {
    await context.addCookies([
      { name: 'idp.bucket', value: String(CANARY_BUCKET), url: systemUnderTest().baseUrl },
    ]);
    for (let i = 0; i < count; i += 1) {
      const page = await context.newPage();
      if (expectBroken) {
        // Sent (the gateway may drop one under its per-source limit, shared with the worker's earlier spec files:
        // the guard then sees fewer failures, still far above its limits).
        const reported = page.waitForResponse((res) => res.url().endsWith('/client-errors'));
        reported.catch(() => undefined);
        const asked = page.waitForResponse((res) => MFE_LOGIN_MANIFEST.test(res.url()));
        await page.goto('/account/login');
        const version = MFE_LOGIN_MANIFEST.exec((await asked).url())![1];
        if (i === count - 1 && version === active) {
          // The guard ended the canary between this page and its manifest: the active version, working.
          await appTookOver(page);
        } else {
          expect(version).toBe(broken);
          // A first load on a busy machine may take a while: the page is judged once it is done, however long.
          await expect(remoteUnavailable(page).message).toBeVisible({ timeout: 30_000 });
          await reported;
        }
      } else {
        await page.goto('/account/login');
        await expect(signInPage(page).submit).toBeEnabled({ timeout: 30_000 });
      }
      await page.close();
    }
  } finally {
    await context.close();
  }
}

/** mfe-login's canary as the Releases call answers it now (null when none runs). */
async function canaryNow(): Promise<string | null> {
  const answer = await consoleCall(operator, 'Releases');
  expect(answer.status).toBe(200);
  const remotes = (answer.body as { remotes: { id: string; canary: { version: string } | null }[] }).remotes;
  return remotes.find((remote) => remote.id === 'mfe-login')?.canary?.version ?? null;
}

/** The canary's page loads counted so far (over every replica), as ReleaseHealth answers them. */
async function canaryPageLoads(version: string): Promise<number> {
  const answer = await consoleCall(operator, 'ReleaseHealth', { remote: 'mfe-login', window: '15m' });
  expect(answer.status).toBe(200);
  const versions = (answer.body as { versions: { version: string; pageLoads: number }[] }).versions;
  return versions.find((health) => health.version === version)?.pageLoads ?? 0;
}

test('a broken build at 50 % is ended by the guard at its minimum sample, and its browsers get the active version', async ({
  browser,
}) => {
  await canaryAtHalf(broken);
  await loadsInCanaryBucket(browser, MIN_PAGE_LOADS, true);
  // No further load: the sample is complete, the guard ends the canary on one of its next checks.
  await expect
    .poll(canaryNow, { message: 'the guard ends the broken canary', timeout: 30_000, intervals: [500] })
    .toBeNull();
  const [ended] = await releaseHistory(operator);
  expect(ended).toMatchObject({ action: 'canaryEndedByGuard', version: broken, actor: 'guard' });
  // The figures say what the guard judged: exactly the minimum sample, every load failed (its page threw).
  expect(ended!.figures).toMatchObject({ canaryPageLoads: MIN_PAGE_LOADS, minPageLoads: MIN_PAGE_LOADS });
  expect(ended!.figures!.canaryFailureRate).toBeGreaterThan(0.02);
  // The releases page shows it: the guard as the actor, with its figures.
  await operator.reload();
  // Newest first: this canary's end.
  const event = releasesPage(operator).events('canaryEndedByGuard').filter({ hasText: broken }).first();
  await expect(event).toContainText(said`Canary of ${'mfe-login'} ${broken} ended by the canary guard`);
  await expect(event).toContainText('By the canary guard');
  const figure = (name: string) =>
    event.locator('dt', { hasText: name }).locator('xpath=following-sibling::dd[1]');
  await expect(figure('Canary page loads')).toHaveText(String(MIN_PAGE_LOADS));
  await expect(releasesPage(operator).canary('mfe-login')).toHaveText('No canary');

  // The same bucket's next load gets the active version, and the sign-in form works again.
  expect(await servedTo(CANARY_BUCKET, 'mfe-login')).toBe(active);
  const context = await browser.newContext();
  await context.addCookies([
    { name: 'idp.bucket', value: String(CANARY_BUCKET), url: systemUnderTest().baseUrl },
  ]);
  const page = await context.newPage();
  const loaded = page.waitForResponse((res) => res.url().includes(`/remotes/mfe-login/${active}/`));
  await page.goto('/account/login');
  await loaded;
  await expect(signInPage(page).submit).toBeEnabled();
  await context.close();
});

test('a healthy new build under the same load and settings is left running', async ({ browser }) => {
  // The new build may have been loaded by an earlier spec file of this worker (console-releases).
  const before = await canaryPageLoads(healthy);
  await canaryAtHalf(healthy);
  await loadsInCanaryBucket(browser, MIN_PAGE_LOADS, false);
  // The guard has the whole sample before it (the counts are in the shared store) …
  await expect
    .poll(() => canaryPageLoads(healthy), { timeout: 30_000, intervals: [500] })
    .toBeGreaterThanOrEqual(before + MIN_PAGE_LOADS);
  // … and two of its checks later (CANARY_GUARD_INTERVAL_MS, 5 s by default) the canary still runs, with nothing
  // recorded by the guard. The wait is what the test is about: a guard that acts does so within one interval.
  await new Promise((resolve) => setTimeout(resolve, 2 * GUARD_INTERVAL_MS));
  const [latest] = await releaseHistory(operator);
  expect(latest).toMatchObject({ action: 'canaryStarted', version: healthy });
  expect(await canaryNow()).toBe(healthy);
  expect(await servedTo(CANARY_BUCKET, 'mfe-login')).toBe(healthy);
});
