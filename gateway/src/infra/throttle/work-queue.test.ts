import { describe, expect, it } from 'vitest';
import { WorkQueue } from './work-queue.js';

/** A task the test finishes by hand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('work queue (bounded hash work)', () => {
  it('runs at most `limit` tasks at once and starts the waiting ones in arrival order', async () => {
    const queue = new WorkQueue(2);
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    let running = 0;
    let peak = 0;
    const runs = gates.map((g, i) =>
      queue.run(async () => {
        started.push(i);
        running += 1;
        peak = Math.max(peak, running);
        await g.opened;
        running -= 1;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(queue.waiting).toBe(3);
    gates[1]!.open();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.open();
    gates[2]!.open();
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    gates[3]!.open();
    gates[4]!.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect(queue.active).toBe(0);
  });

  it('frees its place when a task fails', async () => {
    const queue = new WorkQueue(1);
    await expect(queue.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(queue.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });

  it('refuses a limit below one', () => {
    expect(() => new WorkQueue(0)).toThrow(RangeError);
  });
});
