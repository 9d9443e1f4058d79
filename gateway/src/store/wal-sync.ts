import { AsyncLocalStorage } from 'node:async_hooks';
import { closeSync, fdatasync, openSync } from 'node:fs';
import { promisify } from 'node:util';

/** Flushes a file's data to the disk (Node's `fdatasync`, on libuv's thread pool: the event loop runs meanwhile). */
export type FlushFile = (fd: number) => Promise<void>;

const flushFileData: FlushFile = promisify(fdatasync);

/** Inside {@link WalSync.flushedOnce}'s work while it runs: its writes leave their flush to its end. */
const deferring = new AsyncLocalStorage<{ open: boolean }>();

/**
 * Whether a write that just committed may answer without its flush: it runs inside a {@link WalSync.flushedOnce}
 * that has not ended (one started there that outlives it, on a later turn, waits for its own flush).
 */
export function flushDeferred(): boolean {
  return deferring.getStore()?.open === true;
}

/**
 * Group commit for the server's SQLite connection (ADR 0067). At `synchronous = FULL` every commit flushes the WAL
 * inside the statement, on the main thread: ≈ 0.1 ms on a quiet disk, tens of ms while a checkpoint flushes the
 * database file, and the event loop stands still meanwhile. The connection runs at `NORMAL` instead (a commit writes
 * the WAL and returns) and the store counts its commits here; a write's promise resolves only after `durable()`,
 * i.e. once a flush of the WAL that began after its commit has finished. The flushes run beside the event loop, and
 * commits that wait together share one. So what a caller awaited is on disk as it was at FULL; only readers may see
 * a commit a moment before it is.
 */
export class WalSync {
  private commits = 0;
  private synced = 0;
  private flushing: Promise<void> | undefined;
  private fd: number | undefined;

  constructor(
    private readonly walFile: string,
    private readonly flushFile: FlushFile = flushFileData,
  ) {}

  /** Counts a commit of the connection: a write outside a transaction, or a transaction's COMMIT. */
  committed(): void {
    this.commits += 1;
  }

  /** How many commits were counted so far. */
  get count(): number {
    return this.commits;
  }

  /** Resolves once every commit counted so far is on disk; rejects when the flush fails (the disk's error). */
  async durable(): Promise<void> {
    const upTo = this.commits;
    while (this.synced < upTo) await (this.flushing ?? this.flush());
  }

  /**
   * Runs `work` with the flushes of its writes left to its end: they commit as they go, and the answer comes once
   * every commit counted by then is on disk — one wait where each write waited in turn. Work that fails answers its
   * error at once (what it committed is flushed by the next write's flush, or by SQLite's next checkpoint).
   */
  async flushedOnce<T>(work: () => Promise<T>): Promise<T> {
    const scope = { open: true };
    try {
      const answer = await deferring.run(scope, work);
      scope.open = false;
      await this.durable();
      return answer;
    } finally {
      scope.open = false;
    }
  }

  /** Closes the WAL's file descriptor (after the connection closed). */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private flush(): Promise<void> {
    // Covers the commits counted before it starts; a commit counted while it runs waits for the next one.
    const upTo = this.commits;
    const run = async () => {
      // The WAL exists once the connection has committed; SQLite keeps the same file while it runs (a checkpoint
      // starts it over in place), and a descriptor of any mode flushes the file's data.
      this.fd ??= openSync(this.walFile, 'r');
      await this.flushFile(this.fd);
      if (upTo > this.synced) this.synced = upTo;
    };
    const flushing = run();
    this.flushing = flushing;
    const done = () => {
      if (this.flushing === flushing) this.flushing = undefined;
    };
    flushing.then(done, done);
    return flushing;
  }
}
