// Forks one of the bench's reference servers (bare-express.mjs, bare-sign-in.mjs) as its own process, like the
// gateway, and resolves its port once it reports it over IPC.
import { fork } from 'node:child_process';

/**
 * @param {string} file the server's module; it sends `{port}` when listening
 * @param {string[]} [execArgv] Node's own options for the child (the sign-in profile's `--inspect`)
 * @returns {Promise<{port: number, pid: number, stop: () => void}>}
 */
export function forkServer(file, execArgv) {
  return new Promise((resolve, reject) => {
    const child = fork(file, [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      ...(execArgv ? { execArgv } : {}),
    });
    child.once('message', (m) =>
      resolve({ port: m.port, pid: child.pid, stop: () => child.kill('SIGTERM') }),
    );
    child.once('exit', (code) => reject(new Error(`${file} exited ${code} before it listened`)));
  });
}
