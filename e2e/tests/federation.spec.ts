/**
 * Runtime federation through the gateway: the shell learns the remotes from /remotes/manifest.json, React and the
 * federation runtime are fetched once per page (remotes share them), and a broken remote version is skipped with
 * a friendly page while every other flow keeps working.
 */
import { expect, test } from '@playwright/test';
import { publishBrokenRemote, rollbackRemote, type Breakage } from '../helpers/releases.js';
import {
  expectOtherRoutesWork,
  expectPage,
  openPage,
  recordScripts,
  remoteUnavailable,
} from '../helpers/shell.js';
import { appTookOver } from '../helpers/sign-in.js';

// Markers of code that must exist once per page: React's element symbol and the federation runtime core.
const REACT_MARKER = 'react.transitional.element';
const RUNTIME_MARKER = 'beforeRegisterRemote';

test('React and the federation runtime are fetched once on a page showing a remote', async ({ page }) => {
  const scripts = recordScripts(page);
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  await openPage(page, '/account/login');
  await expectPage(page, 'Sign in');
  // The drawn page's links are plain links: after the takeover the click is an in-app navigation on this page.
  await appTookOver(page);
  // A second remote on the same page must not bring its own copies either.
  await page.getByRole('link', { name: 'Forgotten your password?' }).click();
  await expectPage(page, 'Recover your account');

  const bodies = await Promise.all(scripts.map(async (s) => ({ url: s.url, body: await s.body })));
  const remoteScripts = bodies.filter((s) => s.url.includes('/remotes/'));
  expect(remoteScripts.some((s) => s.url.includes('/remotes/mfe-login/'))).toBe(true);
  expect(remoteScripts.some((s) => s.url.includes('/remotes/mfe-recovery/'))).toBe(true);
  for (const script of remoteScripts) {
    expect(script.body, `${script.url} must not carry React`).not.toContain(REACT_MARKER);
    expect(script.body, `${script.url} must not carry the federation runtime`).not.toContain(RUNTIME_MARKER);
  }
  expect(bodies.filter((s) => s.body.includes(RUNTIME_MARKER)).map((s) => s.url)).toHaveLength(1);
  expect(bodies.filter((s) => s.body.includes(REACT_MARKER)).length).toBeGreaterThan(0);
  // Nothing is fetched twice.
  const scriptsRequested = requested.filter((url) => url.endsWith('.js'));
  expect(new Set(scriptsRequested).size).toBe(scriptsRequested.length);
});

test('the manifest names every remote by its published version', async ({ request }) => {
  const response = await request.get('/remotes/manifest.json');
  expect(response.ok()).toBe(true);
  const manifest = (await response.json()) as { remotes: Record<string, { entry: string; version: string }> };
  expect(Object.keys(manifest.remotes).sort()).toEqual([
    'mfe-devices',
    'mfe-login',
    'mfe-mfa',
    'mfe-recovery',
    'mfe-tenant',
  ]);
  for (const [id, entry] of Object.entries(manifest.remotes)) {
    expect(entry.entry).toBe(`/remotes/${id}/${entry.version}/remoteEntry.js`);
  }
});

for (const breakage of ['throws-at-import', 'missing-chunks'] as Breakage[]) {
  test(`a broken remote version (${breakage}) is reported and skipped; other flows work; retry recovers`, async ({
    page,
  }) => {
    publishBrokenRemote('mfe-recovery', breakage);
    let rolledBack = false;
    try {
      const reports: unknown[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/api/ops/client-errors') && request.method() === 'POST') {
          reports.push(request.postDataJSON());
        }
      });
      await page.goto('/account/recover');
      const fallback = remoteUnavailable(page);
      await expect(fallback.message).toBeVisible();
      await expect(fallback.retry).toBeVisible();
      await expect
        .poll(() => reports)
        .toContainEqual(expect.objectContaining({ kind: 'remote-load', origin: 'mfe-recovery' }));

      // Every other route keeps working in the same page.
      await expectOtherRoutesWork(page);

      // The release manager rolls back; Retry picks up the good version without a reload.
      await page.goto('/account/recover');
      await expect(fallback.message).toBeVisible();
      rollbackRemote('mfe-recovery');
      rolledBack = true;
      await fallback.retry.click();
      await expectPage(page, 'Recover your account');
    } finally {
      // Leave the good version active for the other specs even when an assertion failed before the rollback.
      if (!rolledBack) rollbackRemote('mfe-recovery');
    }
  });
}
