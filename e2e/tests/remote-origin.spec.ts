/**
 * Issue 48, finding 10 (ADR 0044): the shell takes remote entries from its own origin only. A remotes manifest that
 * names another origin for a remote (here the same gateway under 127.0.0.1, so only the origin differs) leaves that
 * remote unregistered: the page shows the "unavailable" fallback, a `remote-load` report saying why reaches the
 * gateway, and the browser never asks the other origin for anything. The CSP would stop the code too; this is the
 * shell's own check in front of it.
 */
import { expect, test } from '@playwright/test';
import { expectPage, remoteUnavailable } from '../helpers/shell.js';

/** The gateway's origin under another name: the same server, another origin (as a browser counts them). */
function foreignOriginOf(baseURL: string | undefined): string {
  return new URL(baseURL!).origin.replace('localhost', '127.0.0.1');
}

interface Report {
  kind: string;
  origin?: string;
  message: string;
}

test('S33 a manifest entry on another origin is refused: fallback, a remote-load report accepted by the gateway, no request to that origin', async ({
  page,
  baseURL,
}) => {
  const foreignOrigin = foreignOriginOf(baseURL);
  let foreignEntry = '';
  await page.route('**/remotes/manifest.json', async (route) => {
    const response = await route.fetch();
    const manifest = (await response.json()) as { remotes: Record<string, { entry: string }> };
    const recovery = manifest.remotes['mfe-recovery']!;
    foreignEntry = new URL(recovery.entry, foreignOrigin).href;
    recovery.entry = foreignEntry;
    await route.fulfill({ response, json: manifest });
  });
  const reports: Report[] = [];
  const accepted: number[] = [];
  const foreignRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(foreignOrigin)) foreignRequests.push(request.url());
    if (request.url().endsWith('/api/ops/client-errors') && request.method() === 'POST')
      reports.push(request.postDataJSON() as Report);
  });
  page.on('response', (response) => {
    if (response.url().endsWith('/api/ops/client-errors')) accepted.push(response.status());
  });

  await page.goto('/account/recover');
  const fallback = remoteUnavailable(page);
  await expect(fallback.message).toBeVisible();
  await expect(fallback.retry).toBeVisible();
  await expect
    .poll(() => reports)
    .toContainEqual(
      expect.objectContaining({
        kind: 'remote-load',
        origin: 'mfe-recovery',
        message: `mfe-recovery refused: its entry ${foreignEntry} is not on this origin`,
      }),
    );
  await expect.poll(() => accepted.length).toBeGreaterThan(0);
  expect(accepted.every((status) => status >= 200 && status < 300)).toBe(true);
  expect(foreignRequests).toEqual([]);

  // The other remotes still load in the same page, and once the manifest is right again Retry loads this one.
  await page.goto('/account/login');
  await expectPage(page, 'Sign in');
  await page.unroute('**/remotes/manifest.json');
  await page.goto('/account/recover');
  await expectPage(page, 'Recover your account');
});

test('S33 a federation manifest of our origin whose publicPath names another origin: refused as it arrives, nothing loaded from there, reported as remote-load', async ({
  page,
  baseURL,
}) => {
  const foreignOrigin = foreignOriginOf(baseURL);
  const federationManifest = /\/remotes\/mfe-recovery\/[^/]+\/mf-manifest\.json$/;
  await page.route(federationManifest, async (route) => {
    const response = await route.fetch();
    const manifest = (await response.json()) as { metaData: { publicPath: string } };
    const folder = new URL(route.request().url()).pathname.replace(/mf-manifest\.json$/, '');
    manifest.metaData.publicPath = `${foreignOrigin}${folder}`;
    await route.fulfill({ response, json: manifest });
  });
  const reports: Report[] = [];
  const foreignRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(foreignOrigin)) foreignRequests.push(request.url());
    if (request.url().endsWith('/api/ops/client-errors') && request.method() === 'POST')
      reports.push(request.postDataJSON() as Report);
  });

  await page.goto('/account/recover');
  await expect(remoteUnavailable(page).message).toBeVisible();
  const refused = () =>
    reports.find((r) => r.kind === 'remote-load' && r.origin === 'mfe-recovery')?.message ?? '';
  await expect.poll(refused).toContain('is not on this origin: refused');
  expect(refused()).toContain(`ForeignRemoteEntryError: ${foreignOrigin}/remotes/mfe-recovery/`);
  expect(foreignRequests).toEqual([]);
});
