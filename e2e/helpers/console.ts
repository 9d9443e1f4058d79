/**
 * Helpers for the operators' console (issue 51, mfe-admin under /admin): signing in as an operator with a code,
 * calling the console's calls from the page as the console does, "Confirm it's you" when a change asks for it, and
 * the releases page's parts (one place for its labels).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { DEMO_TOTP_SECRET, type DemoUser } from './demo-users.js';
import { appTookOver } from './sign-in.js';
import { runReleases, systemUnderTest } from './system.js';
import { freshTotpCode, twoFactorPages } from './two-factor.js';

/**
 * A code from the demo operators' authenticator app that `user` has not used yet on the system of `dataDir` (this
 * worker's by default). The gateway takes each time step once per account (S17); the steps used are kept beside the
 * system's store, so the spec files of one worker (which share its gateway) never offer a used one.
 */
export async function operatorCode(user: DemoUser, dataDir = systemUnderTest().dataDir): Promise<string> {
  const file = path.join(dataDir, 'e2e-totp-steps.json');
  const used = (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}) as Record<string, number[]>;
  const steps = new Set(used[user.username] ?? []);
  const code = await freshTotpCode(DEMO_TOTP_SECRET, steps);
  used[user.username] = [...steps].slice(-4);
  // A replica on PostgreSQL may not have made its DATA_DIR yet.
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(used));
  return code;
}

/**
 * Signs a demo operator in on `baseUrl` (this worker's gateway by default): password, then a code from the
 * authenticator; resolves once the browser has left the sign-in pages (at `returnUrl`).
 */
export async function signInWithCode(
  page: Page,
  user: DemoUser,
  options: { returnUrl?: string; baseUrl?: string; dataDir?: string } = {},
): Promise<void> {
  const returnUrl = options.returnUrl ?? '/admin/releases';
  await page.goto(`${options.baseUrl ?? ''}/account/login?returnUrl=${encodeURIComponent(returnUrl)}`);
  await appTookOver(page);
  await page.getByRole('textbox', { name: 'Username or email' }).fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const pages = twoFactorPages(page);
  await expect(pages.authenticatorCode).toBeVisible();
  await pages.authenticatorCode.fill(await operatorCode(user, options.dataDir));
  await pages.verify.click();
  await expect(page).toHaveURL((url) => url.pathname === returnUrl.split('?')[0]);
}

/** What a console call answered. */
export interface CallAnswer {
  status: number;
  body: unknown;
}

/** The console calls read with GET (the others are POSTed JSON). */
const GET_CALLS = new Set(['ConsoleAccess', 'Releases', 'ReleaseHealth', 'ReleaseHistory']);

/**
 * Calls `/api/account/<name>` from the page, as the console does: GET with `input` as the query string, or POST
 * with `input` as JSON and the anti-forgery header (S25) from its cookie.
 */
export async function consoleCall(
  page: Page,
  name: string,
  input: Record<string, string | number> = {},
): Promise<CallAnswer> {
  return page.evaluate(
    async ({ name, input, get }) => {
      const token = /(?:^|;\s*)[^=]*x-csrf-token-value=([^;]*)/.exec(document.cookie)?.[1] ?? '';
      const query = new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)])).toString();
      const res = get
        ? await fetch(`/api/account/${name}${query ? `?${query}` : ''}`, {
            headers: { 'x-csrf-token-value': decodeURIComponent(token) },
          })
        : await fetch(`/api/account/${name}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-csrf-token-value': decodeURIComponent(token) },
            body: JSON.stringify(input),
          });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: kept as text
      }
      return { status: res.status, body };
    },
    { name, input, get: GET_CALLS.has(name) },
  );
}

/** A release event as `ReleaseHistory` answers it (shared-contracts/console `releaseEventSchema`). */
export interface ReleaseEventSeen {
  action: string;
  version: string | null;
  percent: number | null;
  actor: string;
  reason: string | null;
  figures: Record<string, number> | null;
}

/** mfe-login's history as `ReleaseHistory` answers it (newest first), for an operator's page. */
export async function releaseHistory(page: Page, remote = 'mfe-login'): Promise<ReleaseEventSeen[]> {
  const answer = await consoleCall(page, 'ReleaseHistory', { remote });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body as { events: ReleaseEventSeen[] }).events;
}

/** The "Confirm it's you" dialog (the account UI's, hosted by the console too). */
export function confirmItsYouDialog(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });
  return {
    dialog,
    password: dialog.getByLabel('Password', { exact: true }),
    code: dialog.getByLabel('Code from your authenticator app'),
    continue: dialog.getByRole('button', { name: 'Continue' }),
  };
}

/**
 * Runs `act` (which clicks something that sends a change) and, when the gateway asks for a recent sign-in, answers
 * the "Confirm it's you" dialog with the operator's password and a code; resolves once `done` is visible.
 */
export async function withConfirmItsYou(page: Page, user: DemoUser, act: () => Promise<void>, done: Locator) {
  await act();
  const confirm = confirmItsYouDialog(page);
  await expect(done.or(confirm.dialog).first()).toBeVisible();
  if (!(await confirm.dialog.isVisible())) return;
  await confirm.password.fill(user.password);
  await confirm.continue.click();
  await expect(confirm.code.or(done).first()).toBeVisible();
  if (await confirm.code.isVisible()) {
    await confirm.code.fill(await operatorCode(user));
    await confirm.continue.click();
  }
  await expect(confirm.dialog).toBeHidden();
  await expect(done).toBeVisible();
}

/** The header's account menu, opened; its Administration link. */
export async function administrationEntry(page: Page): Promise<Locator> {
  const menu = page.getByTestId('account-menu');
  const button = menu.getByRole('button');
  await expect(button).toBeVisible();
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  await expect(menu.getByRole('link', { name: 'Security centre' })).toBeVisible();
  return menu.getByRole('link', { name: 'Administration' });
}

/** A string as a regular expression's source, matched literally. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A sentence of the console as a pattern, for `toContainText`/`getByText`: the console isolates each name and version
 * it puts into a sentence (U+2068 … U+2069, so a version reads left to right in a right-to-left sentence), and the
 * pattern lets each interpolated value be isolated or not. Use as a tag: said`mfe-login ${version} is now active.`
 */
export function said(parts: TemplateStringsArray, ...values: (string | number)[]): RegExp {
  return new RegExp(
    parts
      .map(
        (part, i) => literal(part) + (i < values.length ? `\u2068?${literal(String(values[i]))}\u2069?` : ''),
      )
      .join(''),
  );
}

/** The releases page (/admin/releases): its heading, the console's navigation, and each remote's card and dialog. */
export function releasesPage(page: Page) {
  const card = (remote: string) => page.getByTestId(`release-${remote}`);
  const dialog = page.getByTestId('release-dialog');
  return {
    heading: page.getByRole('heading', { level: 1, name: 'Releases' }),
    consoleNav: page.getByRole('navigation', { name: 'Console' }),
    card,
    /** A card's facts: its active version, its canary ("<version> for 50% of browsers" or "No canary"). */
    active: (remote: string) => page.getByTestId(`release-${remote}-active`),
    canary: (remote: string) => page.getByTestId(`release-${remote}-canary`),
    /** What the card's last action did (its live region). */
    result: (remote: string) => page.getByTestId(`release-${remote}-result`),
    startCanary: (remote: string) =>
      card(remote).getByRole('button', { name: /^(Start a canary|Change the canary)$/ }),
    endCanary: (remote: string) => card(remote).getByRole('button', { name: 'End the canary' }),
    promote: (remote: string) => card(remote).getByRole('button', { name: 'Promote', exact: true }),
    rollBack: (remote: string) => card(remote).getByRole('button', { name: 'Roll back', exact: true }),
    dialog: {
      root: dialog,
      version: dialog.getByLabel('Version', { exact: true }),
      share: dialog.getByLabel('Share of browsers (%)'),
      reason: dialog.getByLabel(/^Reason/),
      confirm: (name: 'Start the canary' | 'End the canary' | 'Promote' | 'Roll back') =>
        dialog.getByRole('button', { name, exact: true }),
    },
    history: page.getByRole('region', { name: 'History', exact: true }),
    /** The history's events, newest first; `action` is the event's (RELEASE_ACTIONS). */
    events: (action?: string) =>
      page.locator(`[data-testid="release-event"]${action ? `[data-action="${action}"]` : ''}`),
  };
}

/**
 * Loads /account/login in `page` and answers the mfe-login versions whose files (`/remotes/mfe-login/<version>/…`)
 * the load fetched, once the app has taken over the page (one version for a healthy load).
 */
export async function mfeLoginVersionsLoaded(page: Page): Promise<string[]> {
  const versions = new Set<string>();
  const seen = (url: string) => {
    const version = /\/remotes\/mfe-login\/([^/]+)\//.exec(url)?.[1];
    if (version) versions.add(version);
  };
  page.on('request', (request) => seen(request.url()));
  await page.goto('/account/login');
  await appTookOver(page);
  await expect.poll(() => versions.size).toBeGreaterThan(0);
  return [...versions];
}

/**
 * The version of `remote` the gateway at `baseUrl` (this worker's by default) serves a browser whose bucket cookie is
 * `bucket` (0–99; a canary of p % serves the buckets below p), as its `/remotes/manifest.json` answers.
 */
export async function servedTo(
  bucket: number,
  remote: string,
  baseUrl = systemUnderTest().baseUrl,
): Promise<string> {
  const res = await fetch(`${baseUrl}/remotes/manifest.json`, {
    headers: { cookie: `idp.bucket=${bucket}` },
  });
  const manifest = (await res.json()) as { remotes: Record<string, { version: string }> };
  return manifest.remotes[remote]?.version ?? '';
}

/**
 * Puts `remote` back as a spec found it, with the releases CLI: no canary, `version` active; resolves once every
 * bucket is served `version`. For `afterAll`, whatever state a failed test left.
 */
export async function restoreRelease(remote: string, version: string, dataDir = systemUnderTest().dataDir) {
  // Either may be refused as nothing to do (no canary running, the version already active): the end state is checked.
  for (const args of [
    ['canary', remote, version, '0'],
    ['promote', remote, version],
  ])
    try {
      runReleases(args, dataDir);
    } catch {
      // checked below
    }
  await expect
    .poll(async () => [await servedTo(0, remote), await servedTo(99, remote)])
    .toEqual([version, version]);
}
