import { defineConfig } from '@playwright/test';
import { E2E_ENV, freePort } from './helpers/system.js';

// The port is picked once, in the main process, before the workers start (they inherit the environment), so the
// global setup, the workers and baseURL agree on it.
process.env[E2E_ENV.port] ??= String(await freePort());
const baseURL = `http://localhost:${process.env[E2E_ENV.port]}`;

/** Debian's Chromium (never a downloaded browser) with the flags that keep it off the closed network. */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};

export default defineConfig({
  testDir: './tests',
  // Several people may run suites in one checkout at once; a run can keep its artefacts apart.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  globalSetup: './helpers/global-setup.ts',
  // One gateway for the run; the release suite changes what it serves, so specs run one at a time.
  workers: 1,
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  // First loads on a busy two-core machine can take a few seconds (cold gateway, first federation round trip).
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: CHROMIUM_LAUNCH,
    // The offline worker would serve cached shells between specs; each test starts from the network.
    serviceWorkers: 'block',
    locale: 'en-GB',
    trace: 'retain-on-failure',
  },
});
