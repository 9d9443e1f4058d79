// Lighthouse 12.8 through its node API with Debian's Chromium, default (mobile) preset, performance only.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { writeFileSync } from 'node:fs';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './browser.mjs';

/**
 * One Lighthouse run; returns score (0–100), LCP ms, TBT ms, CLS.
 * @param {string} url
 */
export async function runLighthouse(url) {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
    logLevel: 'silent',
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    if (!result) throw new Error('lighthouse returned no result');
    const lhr = result.lhr;
    // LIGHTHOUSE_DUMP=<file>: the whole report of the last run, to read its long tasks and bootup time.
    if (process.env.LIGHTHOUSE_DUMP) writeFileSync(process.env.LIGHTHOUSE_DUMP, JSON.stringify(lhr));
    if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const audit = (id) => lhr.audits[id]?.numericValue ?? NaN;
    return {
      score: (lhr.categories.performance?.score ?? NaN) * 100,
      lcpMs: audit('largest-contentful-paint'),
      tbtMs: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
      fcpMs: audit('first-contentful-paint'),
      formFactor: lhr.configSettings.formFactor,
      warnings: lhr.runWarnings,
    };
  } finally {
    await chrome.kill();
  }
}
