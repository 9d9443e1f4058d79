import { afterEach, describe, expect, it, vi } from 'vitest';
import { yieldToMain } from './yield-to-main.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Resolves after `hops` promise hops: microtasks queued now, all of which run before the current task ends. */
async function microtasks(hops: number, log: string[]): Promise<void> {
  for (let i = 0; i < hops; i += 1) await Promise.resolve();
  log.push('microtasks done');
}

describe('yieldToMain', () => {
  it('uses scheduler.yield() where the browser has it', async () => {
    const yielded = vi.fn(() => Promise.resolve());
    vi.stubGlobal('scheduler', { yield: yielded });
    await yieldToMain();
    expect(yielded).toHaveBeenCalledOnce();
  });

  it('otherwise resumes in a new task: every microtask queued in the current one runs first', async () => {
    vi.stubGlobal('scheduler', undefined);
    const log: string[] = [];
    const resumed = yieldToMain().then(() => log.push('resumed'));
    const drained = microtasks(200, log);
    await Promise.all([resumed, drained]);
    expect(log).toEqual(['microtasks done', 'resumed']);
  });
});
