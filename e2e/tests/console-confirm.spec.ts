/**
 * Every change in the console needs a recent sign-in (issue 51, ADR 0058), in Chromium against a gateway of its own
 * with a short recent-sign-in window (RECENT_SIGN_IN_SECONDS), waited out: the release manager's change of the
 * canary guard is refused by the gateway (403 recentSignInRequired), "Confirm it's you" opens over the releases page
 * and asks for the password, then a code from the authenticator app; the change is then sent again and saved, on
 * the same page, and the history names the release manager.
 */
import { expect, test, type Page, type Response } from '@playwright/test';
import {
  confirmItsYouDialog,
  operatorCode,
  releaseHistory,
  releasesPage,
  said,
  signInWithCode,
} from '../helpers/console.js';
import { CONSOLE_USERS } from '../helpers/demo-users.js';
import { startIdentityService, type IdentityService } from '../helpers/portal.js';

// The window is waited out; the authenticator may wait for its next time step (S17).
test.describe.configure({ timeout: 150_000 });

/** Long enough to sign in and open the console on a busy machine, short enough to wait out. */
const WINDOW_SECONDS = 10;
const manager = CONSOLE_USERS.releasemanager;
let identity: IdentityService;

test.beforeAll(async () => {
  identity = await startIdentityService({ RECENT_SIGN_IN_SECONDS: String(WINDOW_SECONDS) });
});

test.afterAll(async () => {
  await identity?.stop();
});

/** When the server counts the sign-in as recent until (epoch ms); 0 once it no longer does. */
const recentSignInUntil = (page: Page) =>
  page.evaluate(
    async () =>
      ((await (await fetch('/api/Account/SecurityCentreView')).json()) as { recentSignInUntil: number })
        .recentSignInUntil,
  );

/** A response of the SetCanaryGuard call (the account API's paths are case-insensitive). */
const setCanaryGuard = (res: Response) =>
  /\/api\/account\/SetCanaryGuard$/i.test(new URL(res.url()).pathname);

test('a change after the recent-sign-in window asks "Confirm it’s you" with the password and a code, then is saved', async ({
  page,
}) => {
  await signInWithCode(page, manager, {
    baseUrl: identity.url,
    dataDir: identity.env.DATA_DIR,
    returnUrl: '/admin/releases',
  });
  const releases = releasesPage(page);
  await expect(releases.heading).toBeVisible();
  await expect
    .poll(() => recentSignInUntil(page), {
      message: 'the recent-sign-in window ends',
      timeout: WINDOW_SECONDS * 1000 + 15_000,
      intervals: [500],
    })
    .toBe(0);

  await releases.card('mfe-login').getByRole('button', { name: 'Canary guard', exact: true }).click();
  const { root: dialog } = releases.dialog;
  await dialog.getByLabel('Minimum page loads of the canary').fill('250');
  await dialog.getByLabel(/^Reason/).fill('e2e: a larger sample');
  const refused = page.waitForResponse(setCanaryGuard);
  await dialog.getByRole('button', { name: 'Save the guard', exact: true }).click();
  expect((await refused).status()).toBe(403);

  const confirm = confirmItsYouDialog(page);
  await expect(confirm.dialog).toBeVisible();
  await expect(confirm.password).toBeFocused();
  await confirm.password.fill(manager.password);
  await confirm.continue.click();
  await expect(confirm.code).toBeVisible();
  await confirm.code.fill(await operatorCode(manager, identity.env.DATA_DIR));
  const retried = page.waitForResponse((res) => setCanaryGuard(res) && res.status() === 200);
  await confirm.continue.click();
  await retried;
  await expect(confirm.dialog).toBeHidden();
  await expect(releases.result('mfe-login')).toHaveText(
    said`The canary guard of ${'mfe-login'} has been saved.`,
  );
  await expect(releases.card('mfe-login')).toContainText(said`Ends a canary after ${250} page loads`);
  const [latest] = await releaseHistory(page);
  expect(latest).toMatchObject({
    action: 'guardChanged',
    actor: manager.username,
    reason: 'e2e: a larger sample',
  });
});
