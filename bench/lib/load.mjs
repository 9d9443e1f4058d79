// Forks the load worker (a second process on loopback) for one job and returns its summary.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WORKER = fileURLToPath(new URL('./load-worker.mjs', import.meta.url));

/**
 * @param {object} job see load-worker.mjs
 * @param {number} [hardTimeoutMs] kills the worker if it overruns (bounded in time whatever the server does)
 */
export function runLoad(job, hardTimeoutMs = ((job.duration ?? 10) + 60) * 1000) {
  return new Promise((resolve, reject) => {
    const child = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let settled = false;
    const timer = setTimeout(() => {
      if (!settled) {
        settled = true;
        child.kill('SIGKILL');
        reject(new Error(`load worker overran ${hardTimeoutMs} ms`));
      }
    }, hardTimeoutMs);
    child.on('message', (msg) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (msg.type === 'result') resolve(msg.result);
      else reject(new Error(msg.message));
    });
    child.on('exit', (code) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new Error(`load worker exited with ${code} before answering`));
    });
    child.send({ type: 'run', job });
  });
}
