/**
 * Error boundaries around remote pages (issues 2 and 4): a remote whose page throws while rendering shows the
 * translated "unavailable" fallback with Retry in place of the page, is reported to the client-error endpoint
 * with kind `boundary`, and every other route keeps working; Retry after a rollback shows the page again. Also a
 * remote entry the network does not deliver.
 */
import { expect, test, type Page } from '@playwright/test';
import { publishBrokenRemote, RENDER_ERROR_MESSAGE, rollbackRemote } from '../helpers/releases.js';
import { expectOtherRoutesWork, expectPage, remoteUnavailable } from '../helpers/shell.js';

interface Report {
  kind: string;
  origin?: string;
  message: string;
  url: string;
}

/** Collects the client-error reports the page sends, and checks the gateway accepted them. */
function recordReports(page: Page): { reports: Report[]; statuses: number[] } {
  const out = { reports: [] as Report[], statuses: [] as number[] };
  page.on('request', (request) => {
    if (request.url().endsWith('/api/ops/client-errors') && request.method() === 'POST') {
      out.reports.push(request.postDataJSON() as Report);
    }
  });
  page.on('response', (response) => {
    if (response.url().endsWith('/api/ops/client-errors')) out.statuses.push(response.status());
  });
  return out;
}

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
