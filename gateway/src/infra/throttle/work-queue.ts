/**
 * Runs at most `limit` tasks at once; the others wait in arrival order. Password hashing uses it so a burst of
 * sign-ins queues fairly instead of every hash competing for the same cores (and for libuv's thread pool, which
 * file and DNS work share): each finishes in about one hash time after its turn comes.
 */
export class WorkQueue {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('WorkQueue limit must be an integer ≥ 1');
  }

  /** Tasks running now. */
  get active(): number {
    return this.running;
  }

  /** Tasks waiting for a place. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Runs `task` once a place is free; its place is given to the next waiting task when it settles. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.running += 1;
    try {
      return await task();
    } finally {
      // The place passes straight to the next task, so a newcomer cannot overtake one already waiting.
      const next = this.queue.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
