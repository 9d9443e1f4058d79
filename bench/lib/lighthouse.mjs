// Lighthouse 12.8 through its node API with Debian's Chromium, default (mobile) preset, performance only.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { writeFileSync } from 'node:fs';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './browser.mjs';
import { LONG_TASK_MS, mainThreadTasks, pageOwn } from './page-trace.mjs';

/** Lighthouse's mobile preset runs the page's CPU this many times slower (its simulation scales each task). */
const LIGHTHOUSE_CPU_SLOWDOWN = 4;

/**
 * One Lighthouse run; returns score (0–100), LCP ms, TBT ms, CLS and the long tasks.
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
    // The page's main-thread tasks of 50 ms or more (simulated under the 4× CPU slowdown, as TBT counts them), each
    // with the script Lighthouse attributes it to ("Unattributable": no script on its stack, e.g. a React commit
    // started by a promise): the trace the issue asks the bench to keep.
    const longTasks = (lhr.audits['long-tasks']?.details?.items ?? []).map((t) => ({
      url: String(t.url ?? ''),
      durationMs: Number(t.duration ?? 0),
      startMs: Number(t.startTime ?? 0),
    }));
    // The same load's tasks read from Lighthouse's own trace, each with what runs in it (its long tasks name a script
    // at best): those that its 4× slowdown makes 50 ms or more.
    const tasks = mainThreadTasks(result.artifacts?.Trace?.traceEvents ?? []);
    const traceTasks = tasks
      .filter((t) => t.wallMs * LIGHTHOUSE_CPU_SLOWDOWN >= LONG_TASK_MS)
      .map(({ startMs, wallMs, cpuMs, label }) => ({ startMs, wallMs, cpuMs, label }));
    // The longest of the page's own tasks by its time on a core (wall time less the waits for a core that the
    // browser's other processes and the tracing cause on two cores), at Lighthouse's 4×.
    const ownCpu = pageOwn(tasks);
    const longestOwnOnCore = ownCpu.reduce((a, b) => (b.cpuMs > (a?.cpuMs ?? -1) ? b : a), undefined);
    return {
      longTasks,
      traceTasks,
      longestOwnOnCoreMs: (longestOwnOnCore?.cpuMs ?? 0) * LIGHTHOUSE_CPU_SLOWDOWN,
      longestOwnOnCoreLabel: longestOwnOnCore?.label ?? '',
      longestTaskMs: longTasks.reduce((m, t) => Math.max(m, t.durationMs), 0),
      tasksOver50: longTasks.filter((t) => t.durationMs > 50).length,
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
