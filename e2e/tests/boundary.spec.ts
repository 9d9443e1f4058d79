/**
 * Error boundaries around remote pages (issues 2 and 4): a remote whose page throws while rendering shows the
 * translated "unavailable" fallback with Retry in place of the page, is reported to the client-error endpoint
 * with kind `boundary`, and every other route keeps working; Retry after a rollback shows the page again. Also a
 * remote entry the network does not deliver. And a part of a shell page whose code the network does not deliver
 * (shell/src/platform/on-demand.tsx): it gives way alone, reported, and says so with Try again where it is needed.
 */
import { expect, test, type Locator, type Route } from '@playwright/test';
import { addUser } from '../helpers/admin.js';
import { publishBrokenRemote, RENDER_ERROR_MESSAGE, rollbackRemote } from '../helpers/releases.js';
import {
  expectOtherRoutesWork,
  expectPage,
  recordReports,
  remoteUnavailable,
  shellChunkDefining,
} from '../helpers/shell.js';
import { signIn } from '../helpers/sign-in.js';

test('a remote page that throws while rendering shows the fallback with Retry, is reported, and the rest works', async ({
  page,
}) => {
  await publishBrokenRemote('mfe-recovery', 'throws-in-render');
  let rolledBack = false;
  try {
    const { reports, statuses } = recordReports(page);
    await page.goto('/account/recover');
    const fallback = remoteUnavailable(page);
    await expect(fallback.message).toBeVisible();
    await expect(fallback.retry).toBeVisible();
    // Only the page is replaced: the fallback is a titled page of its own.
    await expectPage(page, 'Temporarily unavailable');
    await expect
      .poll(() => reports)
      .toContainEqual(
        expect.objectContaining({ kind: 'boundary', origin: 'mfe-recovery', message: RENDER_ERROR_MESSAGE }),
      );
    await expect.poll(() => statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s >= 200 && s < 300)).toBe(true);

    // Other routes keep working in the same page: another remote, a shell page, and back again.
    await expectOtherRoutesWork(page);

    // The translated fallback: German through the language cookie.
    await page.context().addCookies([{ name: '.AspNetCore.Culture', value: 'c=de|uic=de', url: page.url() }]);
    await page.evaluate(() => localStorage.setItem('locale', 'de'));
    await page.goto('/account/recover');
    await expect(page.getByRole('button', { name: 'Erneut versuchen' })).toBeVisible();
    await page.evaluate(() => localStorage.setItem('locale', 'en-GB'));
    await page.context().clearCookies({ name: '.AspNetCore.Culture' });

    // Rolled back, Retry (no reload) loads the good version's page.
    await page.goto('/account/recover');
    await expect(fallback.message).toBeVisible();
    await rollbackRemote('mfe-recovery');
    rolledBack = true;
    await fallback.retry.click();
    await expectPage(page, 'Recover your account');
  } finally {
    if (!rolledBack) await rollbackRemote('mfe-recovery');
  }
});

// A gateway never names a version it cannot serve (ADR 0033), so an entry that does not load is what the network
// makes of it (a proxy's 404, a dropped connection): the entry's request is answered 404 here, then let through.
test('a remote entry that cannot be fetched is skipped with the fallback; Retry loads it once it can', async ({
  page,
}) => {
  const entry = '**/remotes/mfe-recovery/*/remoteEntry.js';
  await page.route(entry, (route) =>
    route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not Found' }),
  );
  const { reports } = recordReports(page);
  await page.goto('/account/recover');
  const fallback = remoteUnavailable(page);
  await expect(fallback.message).toBeVisible();
  await expect(fallback.retry).toBeVisible();
  await expect
    .poll(() => reports)
    .toContainEqual(expect.objectContaining({ kind: 'remote-load', origin: 'mfe-recovery' }));

  // The entry answers again; Retry (no reload) picks it up.
  await page.unroute(entry);
  await fallback.retry.click();
  await expectPage(page, 'Recover your account');
});

test('a part of a shell page whose code does not arrive gives way alone: the security centre says so and Try again loads it, the header goes without its account menu', async ({
  page,
}) => {
  const user = addUser('part-boundary');
  const { reports } = recordReports(page);
  // As a connection that drops (or a build replaced under the open page) would: these two chunks never arrive.
  const missing = [shellChunkDefining('SecurityCentre'), shellChunkDefining('AccountMenu')];
  const fail = (route: Route) => route.abort('internetdisconnected');
  for (const file of missing) await page.route(`**/assets/${file}`, fail);

  await signIn(page, user, { returnUrl: '/account/' });
  await expect(page).toHaveURL(/\/account\/$/);
  // The page stands, with who is signed in and the header's own controls; only the two parts gave way.
  await expectPage(page, 'Account');
  await expect(page.getByText(user.username).first()).toBeVisible();
  await expect(page.getByTestId('theme-switch')).toBeVisible();
  await expect(page.getByTestId('account-menu')).toHaveCount(0);
  const unavailable = page.getByText('This part of the site is unavailable. Try again.');
  await expect(unavailable).toBeVisible();
  await expect(page.locator('#security-centre-heading')).toHaveCount(0);
  // Apart from the signed-in card, as the centre would be (it sat flush against the card before).
  const card = page.locator('.shell__signed-in');
  const gapBelowCard = async (below: Locator) =>
    (await below.boundingBox())!.y - ((await card.boundingBox())!.y + (await card.boundingBox())!.height);
  expect(await gapBelowCard(unavailable)).toBeGreaterThanOrEqual(24);
  await expect
    .poll(() => reports.map((r) => `${r.kind} ${r.origin} ${r.message.split(':')[0]}`).sort())
    .toEqual(['boundary shell account-menu', 'boundary shell security-centre']);

  for (const file of missing) await page.unroute(`**/assets/${file}`, fail);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.locator('#security-centre-heading')).toBeVisible();
  await expect(unavailable).toHaveCount(0);
  expect(await gapBelowCard(page.locator('#security-centre-heading'))).toBeGreaterThanOrEqual(24);
});
