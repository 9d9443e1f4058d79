/**
 * Runtime federation through the gateway (docs/adr/0034-react-and-module-federation-2.md): the shell learns the
 * remotes from /remotes/manifest.json and loads each through its published mf-manifest.json with the Module
 * Federation 2 runtime; React 19 renders, and React and the runtime are fetched once per page (remotes share them);
 * a remote load that stalls is given up after a timeout and retried before the fallback shows; a remote built
 * against an incompatible shared-contracts or React is refused by `releases publish` with its one line and, got into
 * the store past that check, by the browser at load with a report; a broken remote version is skipped
 * with a friendly page while every other flow keeps working.
 */
import { expect, test, type Page } from '@playwright/test';
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
// A class name only shared-contracts/account-ui's ResultStatus uses.
const ACCOUNT_UI_MARKER = 'hr-result-status';

/** The singletons every page shares (ARCHITECTURE.md "The remote contract"). */
const SINGLETONS = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  'react-router',
  '@reduxjs/toolkit',
  'react-redux',
  'i18next',
  'react-i18next',
  'shared-contracts',
];

/** What the page's federation runtime and React say about themselves, read in the page. */
async function federationFacts(page: Page) {
  return page.evaluate(async (singletons) => {
    interface Shared {
      from: string;
      loaded?: boolean;
      useIn: string[];
      lib?: () => Record<string, unknown>;
      get: () => Promise<() => Record<string, unknown>>;
    }
    const federation = (
      globalThis as unknown as {
        __FEDERATION__: {
          __INSTANCES__: {
            name: string;
            version: string;
            constructor: unknown;
            shareScopeMap: Record<string, Record<string, Record<string, Shared>>>;
          }[];
        };
      }
    ).__FEDERATION__;
    const instances = federation.__INSTANCES__;
    // The page's share scope, as the shell's instance holds it (every instance sees the same one).
    const scope = instances.find((i) => i.name === 'shell')!.shareScopeMap['default']!;
    const shared = Object.fromEntries(
      singletons.map((key) => [
        key,
        Object.entries(scope[key] ?? {}).map(([version, s]) => ({
          version,
          from: s.from,
          loaded: Boolean(s.loaded),
          useIn: s.useIn,
        })),
      ]),
    );
    const reactEntry = Object.values(scope['react'] ?? {})[0]!;
    const react = reactEntry.lib ? reactEntry.lib() : (await reactEntry.get())();
    const root = document.getElementById('root')!;
    return {
      instanceNames: instances.map((i) => i.name),
      runtimeClasses: new Set(instances.map((i) => i.constructor)).size,
      runtimeVersions: [...new Set(instances.map((i) => i.version))],
      shared,
      reactVersion: react['version'],
      hasUseActionState: typeof react['useActionState'] === 'function',
      // React DOM marks the container it renders into; Preact does not.
      reactDomRoot: Object.keys(root).some((key) => key.startsWith('__reactContainer$')),
    };
  }, SINGLETONS);
}

test('React 19 renders, and React and the federation runtime are fetched once on a page showing two remotes', async ({
  page,
}) => {
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
  // The signed-in pages' kit (shared-contracts/account-ui, provided lazily by the shell) is fetched by neither the
  // sign-in page nor the recover page: the byte walk of bench/lib/route-bytes.mjs leaves it out on that ground.
  for (const script of bodies)
    expect(
      script.body.includes(ACCOUNT_UI_MARKER),
      `${script.url} must not carry shared-contracts/account-ui`,
    ).toBe(false);
  const remoteScripts = bodies.filter((s) => s.url.includes('/remotes/'));
  expect(remoteScripts.some((s) => s.url.includes('/remotes/mfe-login/'))).toBe(true);
  expect(remoteScripts.some((s) => s.url.includes('/remotes/mfe-recovery/'))).toBe(true);
  for (const script of remoteScripts) {
    expect(script.body, `${script.url} must not carry React`).not.toContain(REACT_MARKER);
    expect(script.body, `${script.url} must not carry the federation runtime`).not.toContain(RUNTIME_MARKER);
  }
  expect(bodies.filter((s) => s.body.includes(RUNTIME_MARKER)).map((s) => s.url)).toHaveLength(1);
  expect(bodies.filter((s) => s.body.includes(REACT_MARKER)).length).toBeGreaterThan(0);
  // Each remote came through its federation manifest.
  for (const id of ['mfe-login', 'mfe-recovery'])
    expect(requested.some((url) => new RegExp(`/remotes/${id}/[^/]+/mf-manifest\\.json$`).test(url))).toBe(
      true,
    );
  // Nothing is fetched twice.
  const scriptsRequested = requested.filter((url) => url.endsWith('.js'));
  expect(new Set(scriptsRequested).size).toBe(scriptsRequested.length);

  const facts = await federationFacts(page);
  // One runtime: the shell's and each loaded remote's federation instance are of the one runtime class.
  expect(facts.instanceNames.sort()).toEqual(['mfe_login', 'mfe_recovery', 'shell']);
  expect(facts.runtimeClasses).toBe(1);
  expect(facts.runtimeVersions).toEqual(['2.9.2']);
  // Every singleton once, the shell's, used by both remotes.
  for (const key of SINGLETONS) {
    expect(facts.shared[key], key).toEqual([expect.objectContaining({ from: 'shell', loaded: true })]);
  }
  expect(facts.shared['react']![0]!.useIn).toEqual(expect.arrayContaining(['mfe_login', 'mfe_recovery']));
  expect(facts.shared['shared-contracts']![0]!.version).toBe('1.0.0');
  // React 19 (not Preact's compat layer) is the renderer.
  expect(facts.shared['react']![0]!.version).toMatch(/^19\./);
  expect(facts.reactVersion).toMatch(/^19\./);
  expect(facts.hasUseActionState).toBe(true);
  expect(facts.reactDomRoot).toBe(true);
});

test('a React 19 action works in the built site: the recover form sends with useActionState', async ({
  page,
}) => {
  await openPage(page, '/account/recover');
  await page.getByLabel('Username or email').fill('nobody@example.com');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(
    page.getByText('If an account matches, we have sent an email with a link to reset the password.'),
  ).toBeVisible();
});

test('the manifest names every remote by its published version and federation manifest', async ({
  request,
}) => {
  const response = await request.get('/remotes/manifest.json');
  expect(response.ok()).toBe(true);
  const manifest = (await response.json()) as { remotes: Record<string, { entry: string; version: string }> };
  expect(Object.keys(manifest.remotes).sort()).toEqual([
    'mfe-admin',
    'mfe-devices',
    'mfe-login',
    'mfe-mfa',
    'mfe-recovery',
    'mfe-tenant',
  ]);
  for (const [id, entry] of Object.entries(manifest.remotes)) {
    expect(entry.entry).toBe(`/remotes/${id}/${entry.version}/mf-manifest.json`);
    const federation = (await (await request.get(entry.entry)).json()) as {
      metaData: { remoteEntry: { name: string } };
      shared: { name: string; requiredVersion: string }[];
    };
    expect(federation.metaData.remoteEntry.name).toBe('remoteEntry.js');
    expect(federation.shared.find((s) => s.name === 'shared-contracts')?.requiredVersion).toBe('^1.0.0');
  }
});

test('a remote entry that stalls is given up after the timeout, retried, then shows the fallback; Retry loads it', async ({
  page,
}) => {
  const stalled: string[] = [];
  const retries: string[] = [];
  const reports: { kind?: string; origin?: string; message?: string }[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' && message.text().includes('trying again')) retries.push(message.text());
  });
  page.on('request', (request) => {
    if (request.url().endsWith('/api/ops/client-errors') && request.method() === 'POST')
      reports.push(request.postDataJSON() as (typeof reports)[number]);
  });
  // The entry never answers (a hung connection): nothing is fulfilled, nothing fails.
  const entry = /\/remotes\/mfe-recovery\/[^/]+\/remoteEntry\.js$/;
  await page.route(entry, (route) => {
    stalled.push(route.request().url());
  });
  await page.goto('/account/recover');
  const fallback = remoteUnavailable(page);
  await expect(fallback.message).toBeVisible({ timeout: 60_000 });
  // The first attempt and two retries, each given up after the runtime plugin's timeout.
  expect(retries).toHaveLength(2);
  expect(stalled.length).toBeGreaterThanOrEqual(1);
  await expect
    .poll(() => reports)
    .toContainEqual(expect.objectContaining({ kind: 'remote-load', origin: 'mfe-recovery' }));

  // The network is back: Retry loads the remote.
  await page.unroute(entry);
  await fallback.retry.click();
  await expectPage(page, 'Recover your account');
});

for (const [breakage, needs] of [
  ['incompatible-contracts', /shared-contracts.*2\.0\.0|2\.0\.0.*shared-contracts/s],
  ['incompatible-react', /react.*20\.0\.0|20\.0\.0.*react/s],
] as const) {
  test(`a remote built against another major (${breakage}) is refused with a report; the compatible one loads`, async ({
    page,
  }) => {
    await publishBrokenRemote('mfe-recovery', breakage);
    let rolledBack = false;
    try {
      const reports: { kind?: string; origin?: string; message?: string }[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/api/ops/client-errors') && request.method() === 'POST')
          reports.push(request.postDataJSON() as (typeof reports)[number]);
      });
      await page.goto('/account/recover');
      const fallback = remoteUnavailable(page);
      await expect(fallback.message).toBeVisible();
      await expect
        .poll(() => reports.filter((r) => r.kind === 'remote-load' && r.origin === 'mfe-recovery'))
        .toContainEqual(expect.objectContaining({ message: expect.stringMatching(needs) }));
      // The page's own singletons were never replaced: the shell still runs on its versions.
      const facts = await federationFacts(page);
      expect(facts.shared['shared-contracts']!.filter((s) => s.loaded).map((s) => s.version)).toEqual([
        '1.0.0',
      ]);
      expect(facts.shared['react']!.filter((s) => s.loaded).map((s) => s.version)).toEqual([
        expect.stringMatching(/^19\./),
      ]);

      // The build against the page's versions loads.
      await rollbackRemote('mfe-recovery');
      rolledBack = true;
      await fallback.retry.click();
      await expectPage(page, 'Recover your account');
    } finally {
      if (!rolledBack) await rollbackRemote('mfe-recovery');
    }
  });
}

for (const breakage of ['throws-at-import', 'missing-chunks'] as Breakage[]) {
  test(`a broken remote version (${breakage}) is reported and skipped; other flows work; retry recovers`, async ({
    page,
  }) => {
    await publishBrokenRemote('mfe-recovery', breakage);
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
      await rollbackRemote('mfe-recovery');
      rolledBack = true;
      await fallback.retry.click();
      await expectPage(page, 'Recover your account');
    } finally {
      // Leave the good version active for the other specs even when an assertion failed before the rollback.
      if (!rolledBack) await rollbackRemote('mfe-recovery');
    }
  });
}
