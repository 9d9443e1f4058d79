// Regenerates the sign-in screenshots of the README (docs/screenshots/): phone (390 px) and desktop, light and
// dark, in English, German and Arabic (right to left), with Debian's Chromium against a running gateway (`npm
// start` at the root, or BASE_URL). German comes from the browser's language; Arabic from the culture cookie, and
// the demo partner offers it for the run when DATA_DIR names the gateway's data folder (the admin CLI adds it and
// puts the partner's languages back afterwards); without DATA_DIR the Arabic shots are skipped.
//   node mfe-login/scripts/screenshots.mjs            # http://localhost:8080
//   BASE_URL=http://localhost:8099 DATA_DIR=/tmp/data node mfe-login/scripts/screenshots.mjs
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const here = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const out = path.join(here, 'docs', 'screenshots');
const DEMO_LANGUAGES =
  'en-GB:English (United Kingdom),en:English (United States),de:Deutsch,fr-CA:Français (Canada),es:Español';

/** Sets the demo partner's languages with the admin CLI on the running gateway's store. */
function demoLanguages(languages) {
  const admin = path.join(here, '..', 'gateway', 'dist', 'cli', 'admin.js');
  const result = spawnSync(
    process.execPath,
    [admin, 'partners', 'update', '--id', 'demo', '--languages', languages],
    {
      env: { ...process.env },
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`admin partners update failed: ${result.stderr}`);
}

const locales = [
  { name: 'en', browser: 'en-GB' },
  { name: 'de', browser: 'de-DE' },
  ...(process.env.DATA_DIR ? [{ name: 'ar', browser: 'en-GB', cookie: 'ar' }] : []),
];
if (!process.env.DATA_DIR)
  console.log('DATA_DIR not set: the Arabic (right-to-left) screenshots are skipped');
if (process.env.DATA_DIR) {
  demoLanguages(`${DEMO_LANGUAGES},ar:العربية`);
  // The gateway reads partner configuration again within a few seconds.
  await new Promise((resolve) => setTimeout(resolve, 6_000));
}
const base = process.env.BASE_URL ?? 'http://localhost:8080';
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  // Keeps Chromium off the closed network (STACK.md "Browser").
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
mkdirSync(out, { recursive: true });
const devices = {
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
};
try {
  for (const locale of locales)
    for (const [device, options] of Object.entries(devices)) {
      for (const colorScheme of ['light', 'dark']) {
        const context = await browser.newContext({
          ...options,
          colorScheme,
          locale: locale.browser,
          serviceWorkers: 'block',
        });
        if (locale.cookie)
          await context.addCookies([
            {
              name: '.AspNetCore.Culture',
              value: encodeURIComponent(`c=${locale.cookie}|uic=${locale.cookie}`),
              url: base,
            },
          ]);
        const page = await context.newPage();
        await page.goto(`${base}/account/login`);
        // After the app took over: the header's controls are there too.
        await page.locator('#root:not([data-first-paint]) [data-testid="theme-switch"]').waitFor();
        await page.locator('input[name="username"]').blur();
        const suffix = locale.name === 'en' ? '' : `-${locale.name}`;
        const file = path.join(out, `sign-in-${device}-${colorScheme}${suffix}.png`);
        await page.screenshot({ path: file });
        console.log(file);
        await context.close();
      }
    }
} finally {
  await browser.close();
  if (process.env.DATA_DIR) demoLanguages(DEMO_LANGUAGES);
}
