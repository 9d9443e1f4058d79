// Section 4: Lighthouse (mobile preset) on /account/login.
import { readFileSync } from 'node:fs';
import { runLighthouse } from './lighthouse.mjs';
import { LONG_TASK_MS, longTasks, pageOwn, startMinimalPage, traceSignInPage } from './page-trace.mjs';
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

/** What the page's own long tasks in Lighthouse's traces were: each kind with how many runs had one. */
function lighthouseTraceNote(runs) {
  const kinds = new Map();
  for (const run of runs) {
    for (const label of new Set(pageOwn(run.traceTasks ?? []).map((t) => t.label)))
      kinds.set(label, (kinds.get(label) ?? 0) + 1);
  }
  if (kinds.size === 0) return 'no task of 12.5 ms or more in the traces';
  return [...kinds]
    .sort((a, b) => b[1] - a[1])
    .map(([label, n]) => `${label} (${n} of ${runs.length})`)
    .join('; ');
}

/** A task for a note: its wall time, the share of it the thread ran, and what ran. */
const taskText = (t) =>
  t ? `${t.wallMs.toFixed(0)} ms (${t.cpuMs.toFixed(0)} ms on a core), ${t.label}` : 'no task';

/** The trace's rows: load and first interaction of the sign-in page, and the minimal page's load (the floor). */
function traceRows(rounds) {
  const load = rounds.map((r) => longTasks(r.load));
  const own = rounds.map((r) => longTasks(pageOwn(r.load)));
  const interaction = rounds.map((r) => longTasks(r.interaction));
  const minimal = rounds.map((r) => longTasks(r.minimal));
  const count = (list) => summarize(list.map((l) => l.count));
  const longest = (list) => summarize(list.map((l) => l.longest?.wallMs ?? 0));
  const worst = (list) => `worst: ${taskText(longTasks(list.map((l) => l.longest).filter(Boolean)).longest)}`;
  return [
    row(
      S,
      `trace /account/login, 4× CPU, slow 4G: load tasks ≥ ${LONG_TASK_MS} ms`,
      '',
      count(load),
      worst(load),
      0,
    ),
    row(S, "    the page's own (without the navigation commit)", '', count(own), worst(own), 0),
    row(
      S,
      "    the page's own longest load task",
      'ms',
      longest(own),
      'wall time on the throttled main thread',
      0,
    ),
    row(
      S,
      `    first interaction (type, Sign in, the 2FA page): tasks ≥ ${LONG_TASK_MS} ms`,
      '',
      count(interaction),
      worst(interaction),
      0,
    ),
    row(S, '    longest interaction task', 'ms', longest(interaction), 'goal < 50 (issue 54)', 0),
    row(
      S,
      `    a minimal page (static form, the S33 headers): load tasks ≥ ${LONG_TASK_MS} ms`,
      '',
      count(minimal),
      `the floor; ${worst(minimal)}`,
      0,
    ),
    row(S, '    its longest load task', 'ms', longest(minimal), "the browser's own work on this machine", 0),
  ];
}

/** @param {{base: string, rounds: number, log: (m: string) => void}} ctx */
export async function runLighthouseSection(ctx) {
  // Each run of the sign-in page is followed by one of the minimal page: the floor, on the same machine's minute.
  const minimalPage = await startMinimalPage();
  const runs = [];
  const minimalRuns = [];
  try {
    await repeat(ctx.rounds, async () => {
      runs.push(await quietRun(`${ctx.base}/account/login`));
      minimalRuns.push(await quietRun(minimalPage.url));
    });
  } finally {
    await minimalPage.close();
  }
  const traced = await traceSignInPage(ctx, waitForQuiet);
  const pick = (k) => summarize(runs.map((r) => r[k]));
  const data = { runs, minimalRuns, traced };
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
    row(
      S,
      "    its trace's tasks × 4 ≥ 50 ms: the page's own (not the navigation commit)",
      '',
      summarize(runs.map((r) => pageOwn(r.traceTasks ?? []).length)),
      lighthouseTraceNote(runs),
      0,
    ),
    row(
      S,
      "    its trace: the page's longest own task on a core, × 4",
      'ms',
      pick('longestOwnOnCoreMs'),
      `goal < 50; ${[...new Set(runs.map((r) => r.longestOwnOnCoreLabel))].join('; ')}`,
      0,
    ),
    row(
      S,
      '    a minimal page (static form, the S33 headers): tasks over 50 ms',
      '',
      summarize(minimalRuns.map((r) => r.tasksOver50)),
      `the floor; ${longestNote(minimalRuns)}`,
      0,
    ),
    row(S, '    wait for a quiet machine', 's', summarize(waits), note, 1),
    ...traceRows(traced),
  ];
  return { rows, data };
}
