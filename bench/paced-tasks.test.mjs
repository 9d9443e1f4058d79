// The hash-alone schedule of section 1 (lib/argon2-bound.mjs measurePacedTasks): every arrival is started on its
// schedule and its latency runs from the scheduled time, so waiting behind earlier tasks counts. A 10 ms timer stands
// in for the hash here (the bench runs it with the gateway's verifyPassword); no time budget is asserted beyond what
// the timer itself guarantees.
import { describe, expect, it } from 'vitest';
import { measurePacedTasks } from './lib/argon2-bound.mjs';

/** A task of at least `ms` by performance.now(), run at most `limit` at a time in arrival order (like a WorkQueue). */
function queuedTimer(ms, limit) {
  let running = 0;
  const waiting = [];
  const sleep = () =>
    new Promise((resolve) => {
      const t = performance.now();
      const check = () => (performance.now() - t >= ms ? resolve() : setTimeout(check, 1));
      setTimeout(check, ms);
    });
  return async () => {
    if (running >= limit) await new Promise((r) => waiting.push(r));
    else running += 1;
    try {
      await sleep();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}

describe('hash-alone schedule (bench section 1)', () => {
  it('starts rate × duration tasks and times each from its scheduled arrival', async () => {
    const r = await measurePacedTasks({ task: queuedTimer(10, 4), rate: 50, durationMs: 600 });
    expect(r.latencyMs).toHaveLength(30);
    expect(r.lagMs).toHaveLength(30);
    // Never earlier than its schedule, never faster than the task itself.
    for (const lag of r.lagMs) expect(lag).toBeGreaterThanOrEqual(0);
    expect(Math.min(...r.latencyMs)).toBeGreaterThanOrEqual(10);
  });

  it('counts an arrival started late from its schedule, not from when it started', async () => {
    // The first task holds the thread for 40 ms, so the arrivals due meanwhile start late.
    const timer = queuedTimer(10, 8);
    let first = true;
    const task = () => {
      if (first) {
        first = false;
        const until = performance.now() + 40;
        while (performance.now() < until);
      }
      return timer();
    };
    const r = await measurePacedTasks({ task, rate: 100, durationMs: 100 });
    expect(Math.max(...r.lagMs)).toBeGreaterThanOrEqual(25);
    r.latencyMs.forEach((ms, i) => expect(ms).toBeGreaterThanOrEqual(r.lagMs[i] + 10));
  });

  it('counts the wait behind earlier tasks: one slot, arrivals twice as fast as it serves', async () => {
    // 20 arrivals 5 ms apart into one 10 ms slot: the last one waits for the 19 before it, ≈ 19 · 10 − 19 · 5 ms.
    const r = await measurePacedTasks({ task: queuedTimer(10, 1), rate: 200, durationMs: 100 });
    expect(r.latencyMs).toHaveLength(20);
    expect(Math.max(...r.latencyMs)).toBeGreaterThanOrEqual(19 * 10 - 19 * 5);
  });

  it('passes a failing task on', async () => {
    await expect(
      measurePacedTasks({ task: () => Promise.reject(new Error('hash failed')), rate: 100, durationMs: 20 }),
    ).rejects.toThrow('hash failed');
  });
});
