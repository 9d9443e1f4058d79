// Section 4: Lighthouse (mobile preset) on /account/login.
import { readFileSync } from 'node:fs';
import { runLighthouse } from './lighthouse.mjs';
import { repeat, summarize } from './stats.mjs';
import { row } from './table.mjs';

const S = '4';
/** Lighthouse's own "please run again" failures (a trace it could not read): retried, at most this often a run. */
const TRANSIENT = /NO_NAVSTART|NO_FCP|PROTOCOL_TIMEOUT/;
const RETRIES = 2;
/** A quiet machine: at least this share of both cores idle over one second, waited for up to QUIET_MAX_MS. */
const QUIET_IDLE = 0.9;
const QUIET_MAX_MS = 60_000;

/** Idle and total jiffies of all cores (/proc/stat), or undefined where there is no /proc. */
function cpuTimes() {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const n = fields.map(Number);
    return { idle: n[3] + n[4], total: n.reduce((a, b) => a + b, 0) };
  } catch {
    return undefined;
  }
}

/**
 * Waits until the machine has been quiet for a second (≥ {@link QUIET_IDLE} of the cores idle), at most
 * {@link QUIET_MAX_MS}; returns the idle share of the last second and the wait. Lighthouse simulates each task of
 * the page from its wall time, so a core taken by something else (the gateway's checkpoint of the WAL the sign-in
 * section wrote, a browser of the section before) lengthens the page's tasks and counts as blocking time.
 */
async function waitForQuiet() {
  const started = performance.now();
  let idleShare = NaN;
  let before = cpuTimes();
  if (!before) return { idleShare, waitedMs: 0 };
  while (performance.now() - started < QUIET_MAX_MS) {
    await new Promise((r) => setTimeout(r, 1000));
    const after = cpuTimes();
    idleShare = (after.idle - before.idle) / Math.max(1, after.total - before.total);
    before = after;
    if (idleShare >= QUIET_IDLE) break;
  }
  return { idleShare, waitedMs: performance.now() - started };
}

/** One Lighthouse run on a quiet machine, run again when Lighthouse itself asks for it (its trace was unreadable). */
async function quietRun(url) {
  for (let attempt = 0; ; attempt += 1) {
    const quiet = await waitForQuiet();
    try {
      return { ...(await runLighthouse(url)), quiet, retries: attempt };
    } catch (e) {
      if (attempt >= RETRIES || !TRANSIENT.test(e instanceof Error ? e.message : String(e))) throw e;
    }
  }
}

/** Where the longest task of the run that had the longest one came from, and when. */
function longestNote(runs) {
  const all = runs.flatMap((r) => r.longTasks ?? []);
  if (all.length === 0) return 'no task of 50 ms or more';
  const worst = all.reduce((a, b) => (b.durationMs > a.durationMs ? b : a));
  const where = worst.url.replace(/^https?:\/\/[^/]+/, '') || 'unattributable';
  return `worst: ${worst.durationMs.toFixed(0)} ms at ${worst.startMs.toFixed(0)} ms, ${where}`;
}

/** @param {{base: string, rounds: number, log: (m: string) => void}} ctx */
export async function runLighthouseSection(ctx) {
  const runs = await repeat(ctx.rounds, () => quietRun(`${ctx.base}/account/login`));
  const pick = (k) => summarize(runs.map((r) => r[k]));
  const data = { runs };
  const waits = runs.map((r) => r.quiet.waitedMs / 1000);
  const idle = runs.map((r) => r.quiet.idleShare);
  const retries = runs.reduce((n, r) => n + r.retries, 0);
  ctx.log(
    `lighthouse: waited ${waits.map((w) => w.toFixed(0)).join(', ')} s for a quiet machine (idle ${idle.map((i) => (i * 100).toFixed(0)).join(', ')} %), ${retries} run(s) again`,
  );
  const note = `quiet machine before each run (idle ≥ ${QUIET_IDLE * 100} %: ${idle.filter((i) => i >= QUIET_IDLE).length} of ${runs.length})${retries ? `; ${retries} unreadable trace(s) run again` : ''}`;
  const rows = [
    row(
      S,
      'Lighthouse /account/login (mobile): performance score',
      '/100',
      pick('score'),
      'higher is better',
      0,
    ),
    row(S, '    LCP (simulated slow 4G, 4× CPU slowdown)', 'ms', pick('lcpMs'), 'good ≤ 2500 ms', 0),
    row(S, '    TBT', 'ms', pick('tbtMs'), 'good ≤ 200 ms', 0),
    row(S, '    CLS', '', pick('cls'), 'good ≤ 0.1', 3),
    row(S, '    main-thread tasks over 50 ms', '', pick('tasksOver50'), 'goal 0 (issue 54)', 0),
    row(S, '    longest task', 'ms', pick('longestTaskMs'), longestNote(runs), 0),
    row(S, '    wait for a quiet machine', 's', summarize(waits), note, 1),
  ];
  return { rows, data };
}
