// The hash bound: how many argon2id verifies per second this machine does with the gateway's exact parameters.
// A password sign-in can never be faster than one verify, so sign-ins/s ÷ verifies/s says how much of the
// machine the rest of the sign-in (HTTP, session, store, CSRF) takes.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const GATEWAY_PKG = fileURLToPath(new URL('../../gateway/package.json', import.meta.url));

/** The very @node-rs/argon2 the gateway resolves (same binary, same thread pool behaviour). */
export async function loadGatewayArgon2() {
  const require = createRequire(GATEWAY_PKG);
  return import(require.resolve('@node-rs/argon2'));
}

/**
 * Verifies as fast as possible with `concurrency` verifies in flight for `durationMs`.
 * @param {{hash: string, password: string, concurrency: number, durationMs: number, verifyOptions?: object}} o
 * @returns {Promise<{perSecond: number, count: number, meanMs: number}>}
 */
export async function measureVerifies({ hash, password, concurrency, durationMs, verifyOptions }) {
  const argon2 = await loadGatewayArgon2();
  const end = performance.now() + durationMs;
  let count = 0;
  let busyMs = 0;
  async function lane() {
    while (performance.now() < end) {
      const t = performance.now();
      const ok = await argon2.verify(hash, password, verifyOptions);
      busyMs += performance.now() - t;
      if (!ok) throw new Error('argon2 verify returned false for the right password');
      count += 1;
    }
  }
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, lane));
  const elapsed = performance.now() - t0;
  return { perSecond: count / (elapsed / 1000), count, meanMs: busyMs / count };
}

/**
 * Verifies as fast as possible on `threads` threads of their own, each running the module's synchronous `verifySync`
 * back to back for `durationMs`: no event loop between two verifies, so a core never waits for an answer to go back
 * and the next verify to be asked for (as it does with the asynchronous `verify`, whose verifies run on libuv's pool
 * and are started from the main thread). Section 1's bound takes the best of both ways.
 * @param {{hash: string, password: string, threads: number, durationMs: number}} o
 * @returns {Promise<{perSecond: number, count: number, meanMs: number}>}
 */
export async function measureVerifiesOnThreads({ hash, password, threads, durationMs }) {
  const modulePath = createRequire(GATEWAY_PKG).resolve('@node-rs/argon2');
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { verifySync } = require(workerData.modulePath);
    parentPort.once('message', (deadline) => {
      let count = 0;
      let busyMs = 0;
      // performance.timeOrigin differs per thread: the deadline comes as wall-clock milliseconds.
      while (performance.timeOrigin + performance.now() < deadline) {
        const t = performance.now();
        if (!verifySync(workerData.hash, workerData.password)) throw new Error('verifySync returned false');
        busyMs += performance.now() - t;
        count += 1;
      }
      parentPort.postMessage({ count, busyMs });
    });
  `;
  const workers = Array.from(
    { length: threads },
    () => new Worker(source, { eval: true, workerData: { modulePath, hash, password } }),
  );
  try {
    // All threads up before the clock starts (a thread's start-up is not verify work).
    await Promise.all(workers.map((w) => new Promise((resolve) => w.once('online', resolve))));
    const t0 = performance.now();
    const deadline = performance.timeOrigin + t0 + durationMs;
    const results = await Promise.all(
      workers.map(
        (w) =>
          new Promise((resolve, reject) => {
            w.once('message', resolve);
            w.once('error', reject);
            w.postMessage(deadline);
          }),
      ),
    );
    const elapsed = performance.now() - t0;
    const count = results.reduce((n, r) => n + r.count, 0);
    const busyMs = results.reduce((n, r) => n + r.busyMs, 0);
    return { perSecond: count / (elapsed / 1000), count, meanMs: busyMs / count };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/**
 * The hash alone at a fixed rate, open loop: arrival i is due at t0 + i · 1000/rate ms and calls `task()` (the
 * gateway's own `verifyPassword`, with its queue of hashes in flight); latency runs from the scheduled time, as in
 * the paced sign-ins (paced.mjs). On the same machine at the same rate, this is how long a sign-in's hash alone takes
 * once hashes overlap: the floor of the sign-in's latency at that load, with no HTTP, session or store around it.
 * @param {{task: () => Promise<unknown>, rate: number, durationMs: number}} o
 * @returns {Promise<{latencyMs: number[], lagMs: number[]}>} both by arrival (index i is arrival i)
 */
export function measurePacedTasks({ task, rate, durationMs }) {
  const total = Math.max(1, Math.round((rate * durationMs) / 1000));
  const intervalMs = 1000 / rate;
  /** @type {number[]} */
  const latencyMs = new Array(total);
  /** @type {number[]} */
  const lagMs = new Array(total);
  return new Promise((resolve, reject) => {
    const t0 = performance.now() + 10;
    let next = 0;
    let settled = 0;
    const start = (i) => {
      const scheduled = t0 + i * intervalMs;
      lagMs[i] = performance.now() - scheduled;
      task().then(() => {
        latencyMs[i] = performance.now() - scheduled;
        settled += 1;
        if (settled === total) resolve({ latencyMs, lagMs });
      }, reject);
    };
    const tick = () => {
      const now = performance.now();
      while (next < total && t0 + next * intervalMs <= now) start(next++);
      if (next < total) setTimeout(tick, Math.max(0, t0 + next * intervalMs - performance.now()));
    };
    setTimeout(tick, Math.max(0, t0 - performance.now()));
  });
}

/** Hashes `password` with the gateway's options (and returns the PHC string whose parameters verify will use). */
export async function hashWith(options, password) {
  const argon2 = await loadGatewayArgon2();
  return argon2.hash(password, options);
}
