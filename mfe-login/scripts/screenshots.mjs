// Regenerates the sign-in screenshots of the README (docs/screenshots/): phone (390 px) and desktop, light and
// dark, with Debian's Chromium against a running gateway (`npm start` at the root, or BASE_URL).
//   node mfe-login/scripts/screenshots.mjs            # http://localhost:8080
//   BASE_URL=http://localhost:8099 node mfe-login/scripts/screenshots.mjs
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const out = path.join(path.dirname(path.dirname(fileURLToPath(import.meta.url))), 'docs', 'screenshots');
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
  for (const [device, options] of Object.entries(devices)) {
    for (const colorScheme of ['light', 'dark']) {
      const context = await browser.newContext({
        ...options,
        colorScheme,
        locale: 'en-GB',
        serviceWorkers: 'block',
      });
      const page = await context.newPage();
      await page.goto(`${base}/account/login`);
      // After the app took over: the header's controls are there too.
      await page.locator('#root:not([data-first-paint]) [data-testid="theme-switch"]').waitFor();
      await page.locator('input[name="username"]').blur();
      const file = path.join(out, `sign-in-${device}-${colorScheme}.png`);
      await page.screenshot({ path: file });
      console.log(file);
      await context.close();
    }
  }
} finally {
  await browser.close();
}
