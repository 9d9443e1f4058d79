/**
 * Operations (issue 18): the /devops page renders SystemStatus for people and follows a canary by itself; it shows
 * "Degraded" while the mail transport is unreachable; an application's request the provider refuses lands on an
 * error page with a reference that `Error` resolves and the gateway's log carries. Each test runs a gateway of its
 * own (a canary or a dead SMTP server must not touch the other suites' shared gateway).
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { runAdmin } from '../helpers/admin.js';
import { startIdentityService, type IdentityService } from '../helpers/portal.js';
import { REPO, runReleases } from '../helpers/system.js';

const REMOTES = ['mfe-login', 'mfe-mfa', 'mfe-recovery', 'mfe-devices', 'mfe-tenant'];

/** Each remote's active version, as the releases CLI lists the registry in the store. */
function activeVersions(identity: IdentityService): Record<string, string> {
  const listed = runReleases(['list'], identity.env.DATA_DIR ?? '');
  return Object.fromEntries(
    REMOTES.map((id) => [id, new RegExp(`^${id}: active ([^;,\\s]+)`, 'm').exec(listed)?.[1] ?? '']),
  );
}

async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test.describe('the /devops page', () => {
  let identity: IdentityService;
  test.beforeAll(async () => {
    identity = await startIdentityService();
  });
  test.afterAll(async () => {
    await identity?.stop();
  });

  test('shows every remote’s version, follows a canary by itself, on a phone, axe clean', async ({
    page,
  }) => {
    const versions = activeVersions(identity);
    await page.goto(`${identity.url}/devops`);
    await expect(page.getByRole('heading', { level: 1, name: 'DevOps' })).toBeVisible();
    await expect(page.getByTestId('devops-overall')).toContainText('Operational');
    for (const id of REMOTES) {
      await expect(page.getByTestId(`devops-row-${id}`).getByTestId('devops-version')).toHaveText(
        versions[id]!,
      );
    }
    await expect(page.getByTestId('devops-row-database')).toContainText('Operational');
    // No sidebar and no navbar (SPEC.md §2).
    await expect(page.getByRole('navigation')).toHaveCount(0);
    await expectNoAxeViolations(page);

    // A new build of mfe-login as a canary for half the browsers: the open page shows it without a reload.
    const copy = mkdtempSync(path.join(tmpdir(), 'mfe-login-canary-'));
    try {
      cpSync(path.join(REPO, 'mfe-login', 'dist'), copy, { recursive: true });
      writeFileSync(path.join(copy, 'canary.txt'), `canary ${Date.now()}\n`);
      const output = runReleases(['publish', 'mfe-login', copy], identity.env.DATA_DIR ?? '');
      const canary = /mfe-login (\S+)/.exec(output)?.[1] ?? '';
      expect(canary).not.toBe('');
      runReleases(['canary', 'mfe-login', canary, '50'], identity.env.DATA_DIR ?? '');
      const row = page.getByTestId('devops-row-mfe-login');
      await expect(row.getByTestId('devops-canary')).toContainText(`Canary ${canary} for 50 % of visitors`, {
        timeout: 30_000,
      });
      await expect(row).toContainText('Live with a canary');
      await expect(row.getByTestId('devops-version')).toHaveText(versions['mfe-login']!);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }

    // On a phone each row is a card: nothing runs off the side of the screen.
    await page.setViewportSize({ width: 360, height: 740 });
    await expect(page.getByTestId('devops-row-mfe-login')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await expectNoAxeViolations(page);

    // In another language.
    await page
      .context()
      .addCookies([{ name: '.AspNetCore.Culture', value: 'c=de|uic=de', url: identity.url }]);
    await page.evaluate(() => localStorage.setItem('locale', 'de'));
    await page.reload();
    await expect(page.getByTestId('devops-overall')).toContainText('In Betrieb');
  });
});

test.describe('the /devops page with the mail transport unreachable', () => {
  let identity: IdentityService;
  test.beforeAll(async () => {
    identity = await startIdentityService({ SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` });
  });
  test.afterAll(async () => {
    await identity?.stop();
  });

  test('shows degraded, the mail row unreachable, and no host or port', async ({ page }) => {
    await page.goto(`${identity.url}/devops`);
    await expect(page.getByTestId('devops-overall')).toContainText('Degraded');
    await expect(page.getByTestId('devops-row-mail')).toContainText('Unreachable');
    await expect(page.getByTestId('devops-row-database')).toContainText('Operational');
    await expect(page.locator('main, body').first()).not.toContainText('127.0.0.1');
    await expectNoAxeViolations(page);
  });
});

test.describe('error pages with a reference', () => {
  let identity: IdentityService;
  test.beforeAll(async () => {
    identity = await startIdentityService();
  });
  test.afterAll(async () => {
    await identity?.stop();
  });

  test('a wrong redirect_uri lands on the sign-in error page with a reference Error resolves and the log carries', async ({
    page,
  }) => {
    const clientId = `ops-e2e-${Date.now()}`;
    runAdmin(
      [
        'clients',
        'add',
        '--id',
        clientId,
        '--name',
        'Ops portal',
        '--public',
        '--redirect-uri',
        'http://localhost:4999/callback',
      ],
      identity.env,
    );
    const authorize = new URL('/connect/authorize', identity.url);
    authorize.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: 'http://attacker.example/callback',
      response_type: 'code',
      scope: 'openid',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }).toString();
    await page.goto(authorize.href);

    await expect(page).toHaveURL(new RegExp(`^${identity.url}/error/signin\\?errorId=[0-9A-Z]{16}$`));
    const errorId = new URL(page.url()).searchParams.get('errorId') ?? '';
    await expect(page.getByTestId('error-reference-id')).toHaveText(errorId);
    await expect(page.getByTestId('error-message')).toHaveText(
      'The application sent you here with a return address it has not registered, so we stopped to keep your account safe.',
    );
    await expect(page.getByRole('link', { name: 'Back to Ops portal' })).toHaveAttribute(
      'href',
      'http://localhost:4999/',
    );
    await expect(page.locator('body')).not.toContainText('attacker.example');
    await expect(page.locator('body')).not.toContainText('redirect_uri');
    await expectNoAxeViolations(page);

    const answer = await page.request.get(`${identity.url}/api/Account/Error?errorId=${errorId}`);
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toMatchObject({
      errorId,
      messageKey: 'invalidRedirectUri',
      clientName: 'Ops portal',
    });
    await expect.poll(() => identity.logs?.() ?? '').toContain(errorId);

    // An unknown reference: the generic page, no reference and no hint.
    await page.goto(`${identity.url}/error/signin?errorId=0000000000000000`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('error-reference')).toHaveCount(0);
    await expect(page.locator('body')).not.toContainText('0000000000000000');
  });
});
