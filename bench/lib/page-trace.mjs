// Section 4 (continued): the sign-in page's main-thread tasks from a Chromium trace, on its load and its first
// interaction, under the CPU slowdown Lighthouse simulates (4×) and the same slow 4G — Lighthouse only loads the
// page, and its long tasks name a script at best ("Unattributable" for most). Each task is listed with what runs in
// it and how much of its wall time the thread had a core for (the trace's thread time): a task that waited for a
// core (the browser's other processes, the tracing itself, on two cores) is long in wall time, not in work.
// Beside the page, the least a sign-in page of this service can be (a static form, no script, the headers every page
// must send) is loaded the same way: its tasks are the browser's own, the floor no page can go below on this machine.
import http from 'node:http';
import { ACCOUNT, phonePage } from './next-page.mjs';
import { launchChromium } from './page-weight.mjs';

/** A long task as Lighthouse and the guide count it: 50 ms or more of the main thread. */
export const LONG_TASK_MS = 50;
/** The categories Chromium's performance panel records: tasks, what runs in them, and user timing marks. */
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'toplevel',
  'v8.execute',
  'blink.user_timing',
  'loading',
];
/** The mark the page is given where the interaction starts (everything before it is the load). */
const INTERACTION_MARK = 'hr-bench-interaction';
/**
 * The least a sign-in page of this service can be: two labelled fields and a button, no script, no stylesheet file,
 * with the headers every page of the service must send (SECURITY-CHECKLIST S33: a CSP with frame-ancestors, nosniff,
 * COOP). COOP matters here: a page with it is committed in a new renderer process when the tab comes from another
 * browsing context group (a fresh tab's about:blank, as Lighthouse and the trace load it), and that commit is the
 * longest task a load has on two cores.
 */
const MINIMAL_PAGE = `<!doctype html><html lang="en-GB"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Sign in</title>
<style>body{font:16px system-ui,sans-serif;margin:2rem}label,input,button{display:block;margin:.5rem 0}</style></head>
<body><main><h1>Sign in</h1><form method="post"><label for="u">Username or email</label><input id="u" name="username">
<label for="p">Password</label><input id="p" name="password" type="password"><button>Sign in</button></form></main>
</body></html>`;
const MINIMAL_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'self';style-src 'self' 'unsafe-inline';object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
};

/** Serves {@link MINIMAL_PAGE} on a free loopback port. */
export async function startMinimalPage() {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, MINIMAL_PAGE_HEADERS);
    res.end(MINIMAL_PAGE);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) };
}

const baseName = (url) =>
  String(url)
    .replace(/[?#].*$/, '')
    .split('/')
    .filter(Boolean)
    .at(-1) ?? String(url);

/** The browser's commit of a navigation: every load has one, whatever the page (see {@link pageOwn}). */
const NAVIGATION_COMMIT = 'navigation commit (the browser)';

/** The tasks a page's code and content make: all but the browser's commit of the navigation. */
export const pageOwn = (tasks) => tasks.filter((t) => t.label !== NAVIGATION_COMMIT);

/** The events that say what a task runs, and how each is named in the figures. */
const KINDS = {
  'DocumentLoader::CommitNavigation': () => NAVIGATION_COMMIT,
  ParseHTML: () => 'parse HTML',
  EvaluateScript: (d) => (d.url ? `evaluate ${baseName(d.url)}` : 'evaluate an inline script'),
  'v8.evaluateModule': () => 'evaluate a module',
  EventDispatch: (d) => `event ${d.type ?? ''}`.trim(),
  TimerFire: () => 'timer',
  FireAnimationFrame: () => 'animation frame',
  FireIdleCallback: () => 'idle callback',
  RunMicrotasks: () => 'microtasks',
  FunctionCall: (d) => `function ${baseName(d.url ?? '')}`.trim(),
  UpdateLayoutTree: () => 'style and layout',
  Layout: () => 'style and layout',
  PrePaint: () => 'paint',
  Paint: () => 'paint',
  MinorGC: () => 'garbage collection',
  MajorGC: () => 'garbage collection',
};

/**
 * What a task runs: the longest of the events inside it that say so ({@link KINDS}; an outer one wins over one
 * nested in it, being at least as long), with the script the first function call inside it names.
 * @param {any[]} within the thread's events inside the task
 */
function labelOf(within) {
  const known = within.filter((e) => KINDS[e.name]);
  if (known.length === 0) return within[0]?.name ?? 'idle work';
  const top = known.reduce((a, b) => ((b.dur ?? 0) > (a.dur ?? 0) ? b : a));
  const label = KINDS[top.name](top.args?.data ?? {});
  if (top.name !== 'RunMicrotasks' && top.name !== 'TimerFire' && top.name !== 'FireAnimationFrame')
    return label;
  const end = top.ts + (top.dur ?? 0);
  const call = within.find((e) => e.ts >= top.ts && e.ts < end && e.args?.data?.url);
  return call ? `${label}, ${baseName(call.args.data.url)}` : label;
}

/**
 * The page's main-thread tasks in a Chromium trace: the renderer main thread that parsed the page's HTML (the one
 * with most tasks in a trace without such a parse), its top-level `RunTask`s, each with its start (ms after the
 * first task), wall time, thread time and what runs in it.
 * @param {any[]} events the trace's `traceEvents`
 * @returns {{startMs: number, wallMs: number, cpuMs: number, label: string, ts: number}[]}
 */
export function mainThreadTasks(events) {
  const threads = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const isTask = (e) => e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
  const sameThread = (a) => (b) => a.pid === b.pid && a.tid === b.tid;
  // The thread that parsed the page's HTML (an http(s) document; a fresh tab's about:blank is parsed elsewhere).
  const parses = events
    .filter((e) => e.name === 'ParseHTML' && /^https?:/.test(e.args?.beginData?.url ?? ''))
    .filter((e) => threads.some(sameThread(e)))
    .sort((a, b) => a.ts - b.ts);
  let main = parses.at(-1);
  if (!main) {
    let most = 0;
    for (const t of threads) {
      const n = events.filter((e) => sameThread(t)(e) && isTask(e)).length;
      if (n > most) [main, most] = [t, n];
    }
  }
  if (!main) return [];
  const own = events
    .filter((e) => sameThread(main)(e) && e.ph === 'X')
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const tasks = [];
  let end = -Infinity;
  for (const e of own) {
    if (!isTask(e) || e.ts < end) continue; // nested tasks belong to the one around them
    tasks.push(e);
    end = e.ts + e.dur;
  }
  const origin = tasks[0]?.ts ?? 0;
  return tasks.map((t) => ({
    ts: t.ts,
    startMs: (t.ts - origin) / 1000,
    wallMs: t.dur / 1000,
    cpuMs: (t.tdur ?? t.dur) / 1000,
    label: labelOf(
      own.filter((e) => e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + t.dur && !isTask(e)),
    ),
  }));
}

/** The tasks of 50 ms or more, and the longest with what ran in it. */
export function longTasks(tasks) {
  const long = tasks.filter((t) => t.wallMs >= LONG_TASK_MS);
  const longest = tasks.reduce((a, b) => (b.wallMs > (a?.wallMs ?? -1) ? b : a), undefined);
  return { count: long.length, long, longest };
}

/** Where the trace's interaction mark is (its timestamp), or Infinity without one. */
function markTs(events) {
  const mark = events.find((e) => e.name === INTERACTION_MARK);
  return mark ? mark.ts : Infinity;
}

/**
 * Loads `url` in a fresh context under the 4× CPU slowdown and slow 4G with tracing on; when `interact` is given,
 * marks the trace, runs it, and splits the tasks into the load's and the interaction's.
 * @param {import('@playwright/test').Browser} browser
 * @param {string} url
 * @param {(page: import('@playwright/test').Page) => Promise<void>} [ready] waits until the page is loaded
 * @param {(page: import('@playwright/test').Page) => Promise<void>} [interact]
 */
async function tracePage(browser, url, ready, interact) {
  const { context, page } = await phonePage(browser);
  try {
    await browser.startTracing(page, { categories: CATEGORIES });
    let events;
    try {
      await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
      if (ready) await ready(page);
      // What the page does right after it is ready (the app's idle work) is still the load.
      await page.waitForTimeout(1000);
      if (interact) {
        await page.evaluate((name) => performance.mark(name), INTERACTION_MARK);
        await interact(page);
        await page.waitForTimeout(500);
      }
    } finally {
      events = JSON.parse((await browser.stopTracing()).toString('utf8')).traceEvents;
    }
    const tasks = mainThreadTasks(events);
    const split = markTs(events);
    return {
      load: tasks.filter((t) => t.ts < split),
      interaction: tasks.filter((t) => t.ts >= split),
    };
  } finally {
    await context.close();
  }
}

/** The app has taken over the page the gateway drew (its form is the one that sends Login). */
const appReady = (page) =>
  page.locator('#root:not([data-first-paint]) input[name="username"]').waitFor({ timeout: 60_000 });

/** The first interaction: the username and password typed key by key, "Sign in", the 2FA page's code field. */
async function firstInteraction(page) {
  await page.locator('input[name="username"]').pressSequentially(ACCOUNT.username);
  await page.locator('input[name="password"]').pressSequentially(ACCOUNT.password);
  await page.locator('button[type="submit"]').click();
  await page.locator('input[autocomplete="one-time-code"]').waitFor({ timeout: 60_000 });
}

/**
 * `rounds` traces of `/account/login` (load and first interaction), each followed by one of the minimal page.
 * @param {{base: string, rounds: number}} ctx
 * @param {() => Promise<unknown>} [beforeEach] run before each trace (the section waits for a quiet machine)
 */
export async function traceSignInPage(ctx, beforeEach = async () => {}) {
  const browser = await launchChromium();
  const minimal = await startMinimalPage();
  try {
    const rounds = [];
    for (let i = 0; i < ctx.rounds; i += 1) {
      await beforeEach();
      const signIn = await tracePage(browser, `${ctx.base}/account/login`, appReady, firstInteraction);
      await beforeEach();
      const floor = await tracePage(browser, minimal.url);
      rounds.push({ load: signIn.load, interaction: signIn.interaction, minimal: floor.load });
    }
    return rounds;
  } finally {
    await minimal.close();
    await browser.close();
  }
}
