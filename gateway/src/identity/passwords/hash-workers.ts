import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** One piece of argon2 work, as a hash thread receives it. */
export type HashJob =
  { op: 'hash'; password: string; options: object } | { op: 'verify'; hash: string; password: string };

/** What a hash thread answers for a job (`id` is the job's). */
interface HashAnswer {
  id: number;
  value?: string | boolean;
  error?: string;
}

/** The part of a `worker_threads` Worker the pool uses: {@link HashWorkers} takes a factory, so tests can watch it. */
export interface HashThread {
  postMessage(message: HashJob & { id: number }): void;
  on(event: 'message', listener: (answer: HashAnswer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  ref(): void;
  unref(): void;
  terminate(): Promise<number>;
}

const argon2Path = createRequire(import.meta.url).resolve('@node-rs/argon2');

/**
 * The hash thread's whole program: it takes its jobs in the order they came and runs each with `@node-rs/argon2`'s
 * synchronous functions, so the next one starts the moment the last one ends. CommonJS source given to the Worker as
 * text (the same under the built gateway and under the test runner, which would otherwise have to load TypeScript in
 * a thread); it requires the very `@node-rs/argon2` this module resolves.
 */
const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { hashSync, verifySync } = require(${JSON.stringify(argon2Path)});
parentPort.on('message', (job) => {
  let answer;
  try {
    const value = job.op === 'verify' ? verifySync(job.hash, job.password) : hashSync(job.password, job.options);
    answer = { id: job.id, value };
  } catch (error) {
    answer = { id: job.id, error: String((error && error.message) || error) };
  }
  parentPort.postMessage(answer);
});
`;

/** Starts one hash thread. */
export function startHashThread(): HashThread {
  return new Worker(THREAD_SOURCE, { eval: true, name: 'argon2' });
}

/** Threads replaced in a row without an answer between them, after which their jobs fail instead. */
const MAX_FAILURES_IN_A_ROW = 3;

interface Pending {
  job: HashJob & { id: number };
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  thread: HashThread;
  /** Jobs sent to this thread and not answered yet, in the order sent. */
  sent: Pending[];
}

/**
 * Password hashing on threads of its own (docs/adr/0004, "Hash work"): `threads` threads, one per core, each holding
 * at most `depth` jobs — the one it runs and the next one, already in its inbox, so it starts that one as soon as the
 * last ends without waiting for the main thread. The main thread's event loop is busy with requests under load, and
 * with hashes on libuv's pool a core waited for it between two hashes (a third hash in flight filled the wait but made
 * every hash dearer). Every other job waits here in arrival order and goes to the first thread with room.
 *
 * A thread that fails or exits is replaced, and the jobs it held are sent again, first: a hash or verify has no effect
 * besides its answer, so running it twice is safe. After more than three replacements in a row with no answer between
 * them the jobs fail instead (threads that cannot run at all). Threads start with the first job and keep the process
 * alive only while they hold one (a CLI command that hashes one password still exits when it is done).
 */
export class HashWorkers {
  private readonly slots: Slot[] = [];
  private readonly waiting: Pending[] = [];
  private nextId = 0;
  /** Threads that failed or exited since the last answer. */
  private failuresInARow = 0;

  constructor(
    readonly threads: number,
    readonly depth = 2,
    private readonly start: () => HashThread = startHashThread,
  ) {
    if (!Number.isInteger(threads) || threads < 1)
      throw new RangeError('hash threads must be an integer ≥ 1');
    if (!Number.isInteger(depth) || depth < 1)
      throw new RangeError('hash thread depth must be an integer ≥ 1');
  }

  /** Jobs sent to a thread and not answered yet. */
  get active(): number {
    return this.slots.reduce((n, s) => n + s.sent.length, 0);
  }

  /** Jobs waiting for room on a thread. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Runs one job; settles with its answer, or fails with the thread's error (a malformed hash, say). */
  run<T extends string | boolean>(job: HashJob): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = {
        job: { ...job, id: this.nextId++ },
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      if (this.slots.length === 0) for (let i = 0; i < this.threads; i++) this.slots.push(this.open());
      this.waiting.push(pending);
      this.dispatch();
    });
  }

  /** Stops every thread (tests; the server's exit does not wait for them). Jobs not answered fail. */
  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    const unanswered = [...slots.flatMap((s) => s.sent.splice(0)), ...this.waiting.splice(0)];
    await Promise.all(slots.map((s) => s.thread.terminate()));
    for (const p of unanswered) p.reject(new Error('hash threads closed'));
  }

  private roomiest(): Slot | undefined {
    let best: Slot | undefined;
    for (const slot of this.slots) {
      if (slot.sent.length < this.depth && (!best || slot.sent.length < best.sent.length)) best = slot;
    }
    return best;
  }

  private send(slot: Slot, pending: Pending): void {
    slot.sent.push(pending);
    if (slot.sent.length === 1) slot.thread.ref();
    slot.thread.postMessage(pending.job);
  }

  /** Sends waiting jobs to threads with room, first come first served. */
  private dispatch(): void {
    for (let slot = this.roomiest(); slot && this.waiting.length > 0; slot = this.roomiest()) {
      this.send(slot, this.waiting.shift()!);
    }
  }

  private open(): Slot {
    const thread = this.start();
    thread.unref();
    const slot: Slot = { thread, sent: [] };
    thread.on('message', (answer: HashAnswer) => {
      const at = slot.sent.findIndex((p) => p.job.id === answer.id);
      if (at === -1) return;
      const pending = slot.sent.splice(at, 1)[0]!;
      this.failuresInARow = 0;
      this.dispatch();
      if (slot.sent.length === 0) thread.unref();
      if (answer.error === undefined) pending.resolve(answer.value);
      else pending.reject(new Error(answer.error));
    });
    let replaced = false;
    const replace = (error?: Error) => {
      const at = this.slots.indexOf(slot);
      if (replaced || at === -1) return;
      replaced = true;
      void slot.thread.terminate();
      const held = slot.sent.splice(0);
      this.failuresInARow += 1;
      if (this.failuresInARow > MAX_FAILURES_IN_A_ROW) {
        // Threads that cannot run at all (the module does not load, say): fail the jobs rather than start threads
        // for ever. With no thread left the next job starts a new set.
        this.slots.splice(at, 1);
        const failed = new Error(`hash threads keep failing${error ? `: ${error.message}` : ''}`);
        for (const p of [...held, ...(this.slots.length === 0 ? this.waiting.splice(0) : [])])
          p.reject(failed);
        return;
      }
      this.slots[at] = this.open();
      // Its jobs go again, ahead of those that came after them.
      this.waiting.unshift(...held);
      this.dispatch();
    };
    thread.on('error', (error: Error) => replace(error));
    thread.on('exit', () => replace());
    return slot;
  }
}
