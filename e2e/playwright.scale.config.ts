import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './playwright.config.js';
import { freePort } from './helpers/system.js';

// The scale suite (docs/ops/production.md, issue 41): two gateway replicas on PostgreSQL + Redis behind nginx, all
// started by the suite itself (e2e/helpers/cluster.ts); run after the main suites by `npm run e2e`. The balancer's
// port is picked here, once, so the spec and baseURL agree on it.
process.env.E2E_SCALE_PORT ??= String(await freePort());
const baseURL = `http://127.0.0.1:${process.env.E2E_SCALE_PORT}`;

export default defineConfig({
  testDir: './scale',
  outputDir: `${process.env.E2E_OUTPUT_DIR ?? 'test-results'}/scale`,
  workers: 1,
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  // Each restart test runs a bounded load of about 20 s; starting the cluster takes ~30 s on a busy machine.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI
    ? [['list'], ['html', { open: 'never', outputFolder: 'playwright-report/scale' }]]
    : 'list',
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: CHROMIUM_LAUNCH,
    serviceWorkers: 'block',
    locale: 'en-GB',
    trace: 'retain-on-failure',
  },
});
