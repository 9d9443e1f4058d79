// Section 3 (continued): how long the second step of a password sign-in takes to show, on a phone-class device
// (Lighthouse's mobile conditions: 150 ms round trip, 1.6 Mbit/s down, 4× CPU slowdown). The demo account
// `authenticator` has an authenticator app, so its password leads to /account/login/twofactor (mfe-mfa), whose
// code loads with the navigation: fetching it while the server checks the password was measured slower on this
// device class (ADR 0034 "Preloading"), so it is not preloaded.
import { launchChromium } from './page-weight.mjs';
import { repeat, summarize } from './stats.mjs';
import { row } from './table.mjs';

const S = '3';
/** The demo data's account with an authenticator app, and the password every demo account has. */
export const ACCOUNT = { username: 'authenticator', password: 'Demo-Password-1!' };
const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};

/**
 * A fresh context with one page on a phone of Lighthouse's mobile preset: its viewport, slow 4G and the CPU slowed
 * 4× (really, by Chromium's throttling, not simulated).
 * @param {import('@playwright/test').Browser} browser
 */
export async function phonePage(browser) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  return { context, page };
}

/** One cold sign-in: ms from pressing "Sign in" to the 2FA page's code field on screen. */
async function passwordToSecondStep(browser, base) {
  const { context, page } = await phonePage(browser);
  try {
    await page.goto(`${base}/account/login`);
    // The app has taken over the server-drawn page (its form is the one that sends Login).
    await page.locator('#root:not([data-first-paint]) input[name="username"]').waitFor({ timeout: 60_000 });
    await page.fill('input[name="username"]', ACCOUNT.username);
    await page.fill('input[name="password"]', ACCOUNT.password);
    const started = await page.evaluate(() => performance.now());
    await page.click('button[type="submit"]');
    await page.waitForURL('**/account/login/twofactor**', { timeout: 60_000 });
    await page.locator('input[autocomplete="one-time-code"]').waitFor({ timeout: 60_000 });
    return (await page.evaluate(() => performance.now())) - started;
  } finally {
    await context.close();
  }
}

/** @param {{base: string, rounds: number}} ctx */
export async function runNextPage(ctx) {
  const browser = await launchChromium();
  try {
    const ms = await repeat(Math.max(3, ctx.rounds), () => passwordToSecondStep(browser, ctx.base));
    return {
      rows: [
        row(
          S,
          'password → 2FA page on screen (slow 4G, 4× CPU)',
          'ms',
          summarize(ms),
          'mfe-mfa loaded with the navigation (ADR 0034)',
          0,
        ),
      ],
      data: { passwordToSecondStepMs: ms },
    };
  } finally {
    await browser.close();
  }
}
