import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { HashWorkers, type HashJob, type HashThread } from './hash-workers.js';

/** Cheap argon2id parameters: the threads run the real module, the tests need not wait for OWASP's. */
const CHEAP = { algorithm: 2, memoryCost: 64, timeCost: 1, parallelism: 1 };

const pools: HashWorkers[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('hash threads running @node-rs/argon2', () => {
  it('hash a password and verify it, right and wrong', async () => {
    const pool = new HashWorkers(2);
    pools.push(pool);
    const hash = await pool.run<string>({ op: 'hash', password: 'Correct horse 1!', options: CHEAP });
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
    await expect(pool.run({ op: 'verify', hash, password: 'Correct horse 1!' })).resolves.toBe(true);
    await expect(pool.run({ op: 'verify', hash, password: 'Correct horse 1' })).resolves.toBe(false);
  });

  it('answer every job of a burst larger than the threads hold, each with its own answer', async () => {
    const pool = new HashWorkers(2, 2);
    pools.push(pool);
    const hash = await pool.run<string>({ op: 'hash', password: 'pw-3', options: CHEAP });
    const answers = await Promise.all(
      Array.from({ length: 9 }, (_, i) => pool.run({ op: 'verify', hash, password: `pw-${i}` })),
    );
    expect(answers).toEqual([false, false, false, true, false, false, false, false, false]);
  });

  it('fail a job whose hash is malformed, and go on with the next', async () => {
    const pool = new HashWorkers(1);
    pools.push(pool);
    await expect(pool.run({ op: 'verify', hash: 'not-a-phc-string', password: 'x' })).rejects.toThrow();
    const hash = await pool.run<string>({ op: 'hash', password: 'after', options: CHEAP });
    await expect(pool.run({ op: 'verify', hash, password: 'after' })).resolves.toBe(true);
  });
});

/** A hash thread the test answers by hand: it records the jobs posted to it and whether it keeps the process up. */
class FakeThread extends EventEmitter implements HashThread {
  readonly jobs: (HashJob & { id: number; password: string })[] = [];
  private answered = 0;
  referenced = true;
  terminated = false;

  postMessage(message: HashJob & { id: number }): void {
    this.jobs.push(message);
  }

  /** Answers the oldest job not answered yet. */
  answer(value: boolean): void {
    const job = this.jobs[this.answered++]!;
    this.emit('message', { id: job.id, value });
  }

  ref(): void {
    this.referenced = true;
  }

  unref(): void {
    this.referenced = false;
  }

  terminate(): Promise<number> {
    this.terminated = true;
    return Promise.resolve(0);
  }
}

describe('sharing the work between threads', () => {
  function fakePool(threads: number, depth: number) {
    const started: FakeThread[] = [];
    const pool = new HashWorkers(threads, depth, () => {
      const thread = new FakeThread();
      started.push(thread);
      return thread;
    });
    return { pool, started };
  }
  const verify = (password: string): HashJob => ({ op: 'verify', hash: 'h', password });

  it('start no thread before the first job, then one per core', () => {
    const { pool, started } = fakePool(2, 2);
    expect(started).toHaveLength(0);
    void pool.run(verify('a'));
    expect(started).toHaveLength(2);
  });

  it('send at most `depth` jobs to a thread, keep the rest in arrival order, refill the one that answers', async () => {
    const { pool, started } = fakePool(2, 2);
    const answers = ['a', 'b', 'c', 'd', 'e', 'f'].map((p) => pool.run(verify(p)));
    const [one, two] = started;
    // Spread over the threads as they come, two each; the last two wait.
    expect(one!.jobs.map((j) => j.password)).toEqual(['a', 'c']);
    expect(two!.jobs.map((j) => j.password)).toEqual(['b', 'd']);
    expect([pool.active, pool.queued]).toEqual([4, 2]);
    two!.answer(true);
    expect(two!.jobs.map((j) => j.password)).toEqual(['b', 'd', 'e']);
    one!.answer(false);
    expect(one!.jobs.map((j) => j.password)).toEqual(['a', 'c', 'f']);
    expect([pool.active, pool.queued]).toEqual([4, 0]);
    await expect(answers[1]).resolves.toBe(true);
    await expect(answers[0]).resolves.toBe(false);
  });

  it('keep the process alive only while a thread holds a job', () => {
    const { pool, started } = fakePool(1, 2);
    void pool.run(verify('a'));
    const [thread] = started;
    expect(thread!.referenced).toBe(true);
    thread!.answer(true);
    expect(thread!.referenced).toBe(false);
  });

  it('replace a thread that dies with jobs in hand, and answer those jobs', async () => {
    const { pool, started: threads } = fakePool(1, 2);
    const first = pool.run({ op: 'verify', hash: 'h', password: 'a' });
    const second = pool.run({ op: 'verify', hash: 'h', password: 'b' });
    const third = pool.run({ op: 'verify', hash: 'h', password: 'c' });
    const [dead] = threads;
    expect(dead!.jobs.map((j) => j.password)).toEqual(['a', 'b']);
    dead!.emit('exit', 1);
    // A new thread takes the dead one's jobs first, then the one that waited.
    const fresh = threads[1]!;
    expect(fresh.jobs.map((j) => j.password)).toEqual(['a', 'b']);
    expect(dead!.terminated).toBe(true);
    fresh.answer(true);
    fresh.answer(false);
    expect(fresh.jobs.map((j) => j.password)).toEqual(['a', 'b', 'c']);
    fresh.answer(true);
    await expect(Promise.all([first, second, third])).resolves.toEqual([true, false, true]);
  });

  it('fail the jobs of threads that keep dying, then start afresh for the next job', async () => {
    let broken = true;
    const started: FakeThread[] = [];
    const pool = new HashWorkers(1, 2, () => {
      const thread = new FakeThread();
      started.push(thread);
      // A broken thread dies as soon as it is given a job, as one whose module cannot load would.
      if (broken)
        thread.postMessage = () => void queueMicrotask(() => thread.emit('error', new Error('no argon2')));
      return thread;
    });
    await expect(pool.run(verify('a'))).rejects.toThrow('hash threads keep failing: no argon2');
    // The first thread and three replacements, then no more.
    expect(started).toHaveLength(4);
    expect(started.every((t) => t.terminated)).toBe(true);
    broken = false;
    const next = pool.run(verify('b'));
    expect(started).toHaveLength(5);
    started[4]!.answer(true);
    await expect(next).resolves.toBe(true);
  });

  it('refuse a pool without threads or depth', () => {
    expect(() => new HashWorkers(0)).toThrow(RangeError);
    expect(() => new HashWorkers(2, 0)).toThrow(RangeError);
  });
});
