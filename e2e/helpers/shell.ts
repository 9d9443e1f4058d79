/** Helpers for the shell: open a page and check which page it shows. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { REPO } from './system.js';

/** The page's heading (every page renders exactly one h1). */
export function pageHeading(page: Page) {
  return page.getByRole('heading', { level: 1 });
}

/** Opens a path and waits until a page heading shows; returns the document response. */
export async function openPage(page: Page, path: string) {
  const response = await page.goto(path);
  await expect(pageHeading(page)).toBeVisible();
  return response;
}

/** Checks the page shown has the given heading. */
export async function expectPage(page: Page, heading: string | RegExp) {
  await expect(pageHeading(page)).toHaveText(heading);
}

/** The navigation progress bar (no spinner). */
export function progressBar(page: Page) {
  return page.getByRole('progressbar');
}

/** The fallback shown in place of a remote that failed to load. */
export function remoteUnavailable(page: Page) {
  return {
    message: page.getByText('This part of the site is unavailable. Try again.'),
    retry: page.getByRole('button', { name: 'Try again' }),
  };
}

/** Records every response of a page (URL, status, body for scripts), for network-log assertions. */
/**
 * With one remote unavailable, every other route keeps working in the same page: another remote, the broken
 * remote's link showing its fallback, back again, and a shell page.
 */
export async function expectOtherRoutesWork(page: Page) {
  await page.goto('/account/login');
  await expectPage(page, 'Sign in');
  await page.getByRole('link', { name: 'Forgotten your password?' }).click();
  await expect(remoteUnavailable(page).message).toBeVisible();
  await page.goBack();
  await expectPage(page, 'Sign in');
  await page.goto('/error');
  await expectPage(page, 'Error');
}

export function recordScripts(page: Page) {
  const scripts: { url: string; body: Promise<string> }[] = [];
  page.on('response', (response) => {
    const type = response.headers()['content-type'] ?? '';
    if (type.includes('javascript'))
      scripts.push({ url: response.url(), body: response.text().catch(() => '') });
  });
  return scripts;
}

/** A client-error report as the page sends it to /api/ops/client-errors. */
export interface ClientErrorReport {
  kind: string;
  origin?: string;
  message: string;
  url: string;
}

/** Collects the client-error reports the page sends, and the statuses the gateway answered them with. */
export function recordReports(page: Page): { reports: ClientErrorReport[]; statuses: number[] } {
  const out = { reports: [] as ClientErrorReport[], statuses: [] as number[] };
  page.on('request', (request) => {
    if (request.url().endsWith('/api/ops/client-errors') && request.method() === 'POST') {
      out.reports.push(request.postDataJSON() as ClientErrorReport);
    }
  });
  page.on('response', (response) => {
    if (response.url().endsWith('/api/ops/client-errors')) out.statuses.push(response.status());
  });
  return out;
}

/**
 * The file name of the shell's built chunk that defines `exportName` — the chunk a part loaded on demand fetches
 * (shell/src/platform/on-demand.tsx), for a spec that makes the network fail it.
 */
export function shellChunkDefining(exportName: string): string {
  const assets = path.join(REPO, 'shell', 'dist', 'assets');
  const files = readdirSync(assets).filter(
    (file) =>
      file.endsWith('.js') && readFileSync(path.join(assets, file), 'utf8').includes(`${exportName}:()=>`),
  );
  if (files.length !== 1)
    throw new Error(`${files.length} shell chunks define ${exportName}: ${files.join(', ')}`);
  return files[0]!;
}
