import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './playwright.config.js';
import { pickSystemPorts } from './helpers/system.js';

// One worker, so one system: the shared global setup starts the gateway where baseURL points.
const baseURL = await pickSystemPorts(1);

/**
 * `npm run screenshots` (issue 43): the README screenshots of the sign-in page, two-step verification, the security
 * centre and customer selection, written to `<package>/docs/screenshots/`. Not a test suite: it lives outside
 * `tests/`, so `npm run e2e` never runs it. Same global setup as the browser suites (the built gateway with demo
 * data on a free port).
 */
export default defineConfig({
  testDir: './screenshots',
  testMatch: '*.shots.ts',
  outputDir: `${process.env.E2E_OUTPUT_DIR ?? 'test-results'}/screenshots`,
  globalSetup: './helpers/global-setup.ts',
  workers: 1,
  fullyParallel: false,
  // A retry only takes that page's four screenshots again; first loads on a busy machine can be slow.
  retries: 1,
  // Each test takes four screenshots, in two fresh browsers that each reach the page first.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: 'list',
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: CHROMIUM_LAUNCH,
    serviceWorkers: 'block',
    trace: 'retain-on-failure',
  },
});
