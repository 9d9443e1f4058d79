// The trace reading of section 4 (lib/page-trace.mjs) on a hand-made Chromium trace: which thread is the page's,
// which tasks are top-level, what each runs, and how long tasks are counted.
import { describe, expect, it } from 'vitest';
import { longTasks, mainThreadTasks, pageOwn } from './lib/page-trace.mjs';

const PAGE = { pid: 2, tid: 7 };
const BLANK = { pid: 3, tid: 9 };
const x = (where, name, ts, dur, extra = {}) => ({ ...where, ph: 'X', name, ts, dur, ...extra });
const threadName = (where) => ({ ...where, ph: 'M', name: 'thread_name', args: { name: 'CrRendererMain' } });
const url = (u) => ({ args: { data: { url: u } } });

const events = [
  threadName(PAGE),
  threadName(BLANK),
  // The fresh tab's about:blank, committed first in another renderer, with more tasks than the page: not the page's.
  ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => x(BLANK, 'RunTask', i * 100, 50)),
  x(BLANK, 'DocumentLoader::CommitNavigation', 10, 20),
  x(BLANK, 'ParseHTML', 30, 10, { args: { beginData: { url: 'about:blank' } } }),
  // The page's commit (inside the message that carries it): long in wall time, 6 ms on a core.
  x(PAGE, 'RunTask', 1_000, 60_000, { tdur: 6_000 }),
  x(PAGE, 'Receive mojo message', 1_050, 59_500),
  x(PAGE, 'DocumentLoader::CommitNavigation', 1_100, 59_000),
  // Its HTML parsed, with the inline script in it.
  x(PAGE, 'RunTask', 70_000, 5_000, { tdur: 4_000 }),
  x(PAGE, 'ParseHTML', 70_100, 4_000, { args: { beginData: { url: 'http://h/account/login' } } }),
  x(PAGE, 'EvaluateScript', 70_200, 3_000, { args: { data: {} } }),
  // A script's evaluation, with a nested task inside it that is not a task of its own.
  x(PAGE, 'RunTask', 100_000, 20_000, { tdur: 18_000 }),
  x(PAGE, 'EvaluateScript', 100_100, 19_000, url('http://h/assets/main.abc.js?x=1')),
  x(PAGE, 'RunTask', 101_000, 1_000),
  // A key press handled in 52 ms: the event, not the function call inside it nor the timer beside it.
  x(PAGE, 'RunTask', 200_000, 52_000, { tdur: 50_000 }),
  x(PAGE, 'TimerFire', 200_100, 1_000),
  x(PAGE, 'EventDispatch', 201_200, 50_000, { args: { data: { type: 'keydown' } } }),
  x(PAGE, 'FunctionCall', 201_300, 49_000, url('http://h/assets/mfe.js')),
  // Promise callbacks, named by the script they run.
  x(PAGE, 'RunTask', 300_000, 10_000, { tdur: 9_000 }),
  x(PAGE, 'RunMicrotasks', 300_100, 9_000),
  x(PAGE, 'FunctionCall', 300_200, 8_000, url('http://h/assets/libs.1.js')),
];

describe('mainThreadTasks', () => {
  const tasks = mainThreadTasks(events);

  it('reads the renderer main thread that parsed the page, top-level tasks only', () => {
    expect(tasks.map((t) => t.startMs)).toEqual([0, 69, 99, 199, 299]);
  });

  it('gives each task its wall time, its time on a core and what runs in it', () => {
    expect(tasks).toMatchObject([
      { wallMs: 60, cpuMs: 6, label: 'navigation commit (the browser)' },
      { wallMs: 5, cpuMs: 4, label: 'parse HTML' },
      { wallMs: 20, cpuMs: 18, label: 'evaluate main.abc.js' },
      { wallMs: 52, cpuMs: 50, label: 'event keydown' },
      { wallMs: 10, cpuMs: 9, label: 'microtasks, libs.1.js' },
    ]);
  });

  it('counts the tasks of 50 ms or more and names the longest', () => {
    const long = longTasks(tasks);
    expect(long.count).toBe(2);
    expect(long.longest).toMatchObject({ wallMs: 60 });
    expect(longTasks(tasks.slice(1, 3))).toMatchObject({ count: 0, longest: { wallMs: 20 } });
  });

  it("leaves the browser's navigation commit out of the page's own tasks", () => {
    expect(pageOwn(tasks).map((t) => t.startMs)).toEqual([69, 99, 199, 299]);
  });

  it('takes the renderer with most tasks in a trace without a parsed page, and none without a renderer', () => {
    const noPage = events.filter((e) => e.name !== 'ParseHTML');
    expect(mainThreadTasks(noPage)).toHaveLength(8);
    expect(mainThreadTasks([x(BLANK, 'RunTask', 0, 10)])).toEqual([]);
  });
});
