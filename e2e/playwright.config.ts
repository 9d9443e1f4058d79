import { defineConfig } from '@playwright/test';
import { pickSystemPorts } from './helpers/system.js';

/**
 * Two workers by default (the CI machine has two cores; `E2E_WORKERS` or `--workers` changes it). Each worker has a
 * system of its own (helpers/global-setup.ts), so specs that publish releases, change the demo partner or lock demo
 * users out cannot disturb a spec in the other worker; within a worker, specs run one at a time.
 */
export const E2E_WORKERS = Number(process.env.E2E_WORKERS ?? 2);

// One port per worker's system, picked once in the runner process before the workers start (they inherit the
// environment), so the global setup, the workers and baseURL agree on it; each worker gets its own system's URL.
const baseURL = await pickSystemPorts(E2E_WORKERS);

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
  workers: E2E_WORKERS,
  // Files are spread over the workers; the tests of a file run in order in one worker (several build on each other).
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  // Two workers share the two cores (each with its Chromium and gateway): a test or a hook that starts a gateway of
  // its own takes longer than alone, so the limit leaves room; a passing test is not slower for it. 120 s since
  // 2026-11-29: on a machine whose system calls are dear (a VM; the same hash speed as the machine before it, the
  // suite 2.4 × as long) the longest tests took 52–57 s against the 60 s the limit was. A hang still ends. Files and
  // tests set only longer limits: console-audit's own 90 s ran out there once (its axe test took 78–96 s).
  timeout: 120_000,
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
