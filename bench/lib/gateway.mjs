// Starts the real gateway (built dist) as its own process on a free loopback port with a throw-away DATA_DIR and the
// demo data, the way `npm start` does: publish the built remotes into the release store, then run the server.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const GATEWAY_DIST = path.join(REPO, 'gateway', 'dist');
const execFileP = promisify(execFile);

/** A port the OS says is free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 2xx or the deadline passes. */
export async function waitForHttp(url, timeoutMs = 60_000, isAlive = () => true) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error(`process exited while waiting for ${url}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
      last = `status ${res.status}`;
    } catch (e) {
      last = e instanceof Error ? e.message : String(e);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms (${last})`);
}

/**
 * Runs one of the gateway CLIs (dist/cli/<name>.js) against the bench DATA_DIR.
 * @param {{env: Record<string,string>}} gw
 * @param {string} cli e.g. 'releases' or 'admin'
 * @param {string[]} args
 */
export async function runGatewayCli(gw, cli, args, input) {
  const file = path.join(GATEWAY_DIST, 'cli', `${cli}.js`);
  if (input !== undefined) {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [file, ...args], {
        cwd: REPO,
        env: gw.env,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('exit', (code) =>
        code === 0
          ? resolve({ stdout: out, stderr: err })
          : reject(new Error(`${cli} ${args.join(' ')} exited ${code}: ${err || out}`)),
      );
      child.stdin.end(input);
    });
  }
  return execFileP(process.execPath, [file, ...args], {
    cwd: REPO,
    env: gw.env,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/**
 * The environment of a bench gateway on `port` with its data in `dataDir`: embedded defaults, the demo data.
 * @param {{port: number, dataDir: string, logLevel?: string}} o
 * @returns {Record<string,string>}
 */
export function gatewayEnv({ port, dataDir, logLevel = 'info' }) {
  return {
    ...process.env,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    SEED_DEMO_DATA: 'true',
    LOG_LEVEL: logLevel,
    // All load comes from one address: the per-source cap on new OIDC authorizations (120 a minute) would answer
    // section 6's round trips with 429 after the first seconds and measure the cap instead of the provider.
    AUTHORIZATIONS_PER_MINUTE: '0',
  };
}

/**
 * Starts the gateway. Returns its base URL, env (for the CLIs), log file and a stop function.
 * @param {{logLevel?: string, nodeArgs?: string[]}} [opts] `nodeArgs`: Node's own options before the script
 *   (the sign-in profile's `--inspect`)
 */
export async function startGateway(opts = {}) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hr-identity-bench-'));
  const base = `http://127.0.0.1:${port}`;
  const env = gatewayEnv({ port, dataDir, logLevel: opts.logLevel });
  // Same order as the root `npm start`: the release store is filled before the server reads it.
  let published = false;
  if (existsSync(path.join(GATEWAY_DIST, 'cli', 'releases.js'))) {
    await runGatewayCli({ env }, 'releases', ['publish-all']);
    published = true;
  }
  const logFile = path.join(dataDir, 'gateway.log');
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), path.join(GATEWAY_DIST, 'server.js')], {
    cwd: REPO,
    env,
    stdio: ['ignore', log, log],
  });
  let alive = true;
  child.on('exit', () => (alive = false));
  try {
    await waitForHttp(`${base}/healthz`, 60_000, () => alive);
  } catch (e) {
    child.kill('SIGKILL');
    throw new Error(`${e instanceof Error ? e.message : String(e)}; see ${logFile}`);
  }
  return {
    base,
    port,
    env,
    dataDir,
    logFile,
    published,
    pid: child.pid,
    async stop({ keepData = false } = {}) {
      if (alive) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
