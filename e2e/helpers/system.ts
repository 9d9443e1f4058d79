/**
 * The system under test: the built gateway serving the built shell and the published remotes, started on a free
 * port with a temporary DATA_DIR. The global setup starts one such system per Playwright worker, so specs in
 * different workers never share a gateway, a store or the demo users; a worker's specs find theirs by the worker's
 * parallel index. Also used by the release helpers (the releases CLI acts on the worker's DATA_DIR).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The gateway's build the run starts (`E2E_GATEWAY_DIST` points a run at another build of it). */
export const GATEWAY_DIST = process.env.E2E_GATEWAY_DIST ?? path.join(REPO, 'gateway', 'dist');
const GATEWAY_SERVER = path.join(GATEWAY_DIST, 'server.js');
const RELEASES_CLI = path.join(GATEWAY_DIST, 'cli', 'releases.js');

/** Environment names the harness shares with the test workers (each suffixed with the worker's parallel index). */
export const E2E_ENV = { port: 'E2E_PORT', baseUrl: 'E2E_BASE_URL', dataDir: 'E2E_DATA_DIR' } as const;

/**
 * The parallel index of this Playwright worker (0 … workers − 1; Playwright sets `TEST_PARALLEL_INDEX` in each
 * worker process before it loads the config), 0 in the runner process.
 */
export function parallelIndex(): number {
  return Number(process.env.TEST_PARALLEL_INDEX ?? 0);
}

/** The environment variable holding `name` (an {@link E2E_ENV} value) of the system of worker `index`. */
export function systemEnv(name: (typeof E2E_ENV)[keyof typeof E2E_ENV], index = parallelIndex()): string {
  return `${name}_${index}`;
}

/** A free TCP port on localhost (closed again before use; good enough on a test machine). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The environment of the gateway and its CLIs for a DATA_DIR and port. */
export function gatewayEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(port),
    PUBLIC_URL: `http://localhost:${port}`,
    DATA_DIR: dataDir,
    SEED_DEMO_DATA: 'true',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    // No load balancer waits on its /readyz: a stop ends it at once, not after the default drain's 10 s.
    DRAIN_SECONDS: '0',
    // The embedded stores: the browser suites must not depend on PostgreSQL/Redis being up.
    DATABASE_URL: '',
    REDIS_URL: '',
  };
}

/**
 * Runs the gateway's releases CLI on a DATA_DIR (with `env` added to its environment); returns its output, throws
 * with it on failure.
 */
export function runReleases(args: string[], dataDir: string, env: NodeJS.ProcessEnv = {}): string {
  if (!existsSync(RELEASES_CLI))
    throw new Error(`${RELEASES_CLI} is missing: build the gateway first (npm run build)`);
  const result = spawnSync(process.execPath, [RELEASES_CLI, ...args], {
    env: { ...process.env, DATA_DIR: dataDir, ...env },
    encoding: 'utf8',
  });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0)
    throw new Error(`releases ${args.join(' ')} failed (${String(result.status)}):\n${output}`);
  return output;
}

/** Processes the harness started that have not exited yet. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Ends `child` when this process exits. A hook that times out while a gateway (or portal) starts never gets to stop
 * it; the worker then exits, and the child goes with it rather than serving on, and loading the machine, for the
 * rest of the run.
 */
export function endsWithThisProcess(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
}

/** A running gateway. */
export interface RunningGateway {
  url: string;
  process: ChildProcess;
  stop: () => Promise<void>;
}

/** Starts `node gateway/dist/server.js` and resolves once /readyz answers 200. */
export async function startGateway(dataDir: string, port: number): Promise<RunningGateway> {
  if (!existsSync(GATEWAY_SERVER))
    throw new Error(`${GATEWAY_SERVER} is missing: build the gateway first (npm run build)`);
  const child = spawn(process.execPath, [GATEWAY_SERVER], {
    env: gatewayEnv(dataDir, port),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  endsWithThisProcess(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${url}/readyz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`gateway did not become ready within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return { url, process: child, stop };
}

/** The base URL and DATA_DIR of this worker's system, as the global setup published them. */
export function systemUnderTest(): { baseUrl: string; dataDir: string } {
  const baseUrl = process.env[systemEnv(E2E_ENV.baseUrl)];
  const dataDir = process.env[systemEnv(E2E_ENV.dataDir)];
  if (!baseUrl || !dataDir)
    throw new Error(
      `the e2e global setup did not run (${systemEnv(E2E_ENV.baseUrl)} / ${systemEnv(E2E_ENV.dataDir)} unset)`,
    );
  return { baseUrl, dataDir };
}

/**
 * Picks a free port for each worker's system, once, in the runner process before the workers start (they inherit
 * the environment), so the global setup, the workers and baseURL agree on it. Returns this process's base URL:
 * worker `i` gets system `i`'s.
 */
export async function pickSystemPorts(workers: number): Promise<string> {
  const taken = new Set<string>();
  for (let index = 0; index < workers; index += 1) {
    const name = systemEnv(E2E_ENV.port, index);
    // Two picks in a row may meet the same just-closed port: ask again until the ports differ.
    while (!process.env[name] || taken.has(process.env[name])) process.env[name] = String(await freePort());
    taken.add(process.env[name]);
  }
  return `http://localhost:${process.env[systemEnv(E2E_ENV.port)]}`;
}
