import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * How often the background connection checkpoints the WAL (ms). After a complete checkpoint the next commit starts
 * the WAL over and flushes its new header, on the main thread: once a second that is one short flush, where SQLite's
 * own threshold made a checkpoint (two flushes and the page copies) every thousand pages, i.e. every ~25 sign-ins.
 */
export const CHECKPOINT_INTERVAL_MS = 1000;

/** Past this many WAL frames (4 KiB each) the worker waits for the writer once to start the WAL over. */
export const MAX_WAL_FRAMES = 10_000;

// The worker is plain CommonJS given as text, so it runs the same from the build and under the test runner (which
// cannot start a worker from a TypeScript file). It opens its own connection to the same file and copies the WAL
// back into the database now and then; PASSIVE never waits for, nor blocks, the server's readers and writers.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const checkpoint = () => {
  try {
    // A checkpoint that ran while commits kept coming leaves their frames behind, and the WAL starts over only once
    // all of it is back in the database: a few quick rounds catch up with the frames written meanwhile.
    let row;
    for (let round = 0; round < 4; round += 1) {
      row = db.pragma('wal_checkpoint(PASSIVE)')[0];
      if (row.checkpointed >= row.log) break;
    }
    // Never caught up under a steady stream of commits: once the WAL is this long, one checkpoint that waits for
    // the writer (a commit may wait for it once, as every ~25 sign-ins did before) keeps it bounded.
    if (row.log > workerData.maxFrames) db.pragma('wal_checkpoint(RESTART)');
  } catch {
    // A lock held past the busy timeout (a CLI writing): the next tick tries again.
  }
  parentPort.postMessage('checkpointed');
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (msg) => {
  if (msg === 'checkpoint') checkpoint();
  if (msg === 'close') {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
`;

/** A checkpointer running in its own thread; see {@link startWalCheckpointer}. */
export interface WalCheckpointer {
  /** Asks for one checkpoint now and resolves when it ran. */
  checkpointNow(): Promise<void>;
  /** Stops the thread and closes its connection. */
  close(): Promise<void>;
}

/**
 * Checkpoints the WAL of the SQLite file `file` in a worker thread. The server's own connection turns automatic
 * checkpoints off (`wal_autocheckpoint = 0`): otherwise every thousandth page written makes the commit that crosses
 * it copy the WAL back and fsync twice on the main thread, which stops every request in flight for the length of a
 * disk flush (the sign-in p99 met these). Commits themselves do not flush in WAL mode (measured: the WAL is flushed
 * at checkpoints only); those flushes now happen beside the event loop.
 */
export function startWalCheckpointer(
  file: string,
  intervalMs: number = CHECKPOINT_INTERVAL_MS,
): WalCheckpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      file,
      intervalMs,
      maxFrames: MAX_WAL_FRAMES,
      module: createRequire(import.meta.url).resolve('better-sqlite3'),
    },
  });
  // It never keeps the process alive: the store's close() stops it; an exiting process just ends it.
  worker.unref();
  const waiting: (() => void)[] = [];
  worker.on('message', () => {
    for (const resolve of waiting.splice(0)) resolve();
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', () => undefined);
  return {
    checkpointNow() {
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        worker.postMessage('checkpoint');
      });
    },
    async close() {
      worker.postMessage('close');
      await exited;
    },
  };
}
