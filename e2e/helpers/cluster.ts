/**
 * The production shape on one machine, for the scale suite (e2e/scale/): a throwaway PostgreSQL cluster and Redis
 * that the suite starts (and restarts) itself on free loopback ports in a temporary folder — never the machine's own
 * services — two replicas of the built gateway on them with the same keys, and nginx in front with the very
 * configuration of docs/ops/nginx.conf.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, GATEWAY_DIST, REPO } from './system.js';

/** An executable on PATH (or in one of `extra`), or undefined. */
function which(name: string, extra: string[] = []): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  for (const dir of extra) {
    const candidate = path.join(dir, name);
    if (spawnSync('test', ['-x', candidate]).status === 0) return candidate;
  }
  return undefined;
}

const PG_DIRS = [
  '/usr/local/bin',
  '/usr/lib/postgresql/17/bin',
  '/usr/lib/postgresql/16/bin',
  '/usr/lib/postgresql/15/bin',
];

/** The programs the suite starts, or why it cannot run. */
export function clusterTools():
  | { ok: true; nginx: string; initdb: string; pgCtl: string; redisServer: string }
  | { ok: false; reason: string } {
  const nginx = which('nginx', ['/usr/sbin']);
  const initdb = which('initdb', PG_DIRS);
  const pgCtl = which('pg_ctl', PG_DIRS);
  const redisServer = which('redis-server', ['/usr/bin']);
  const missing = [
    !nginx && 'nginx (apt-get install nginx)',
    !initdb && 'initdb (PostgreSQL server)',
    !pgCtl && 'pg_ctl (PostgreSQL server)',
    !redisServer && 'redis-server',
  ].filter(Boolean);
  if (missing.length > 0 || !nginx || !initdb || !pgCtl || !redisServer)
    return { ok: false, reason: `the scale suite needs ${missing.join(', ')}` };
  return { ok: true, nginx, initdb, pgCtl, redisServer };
}

/** Waits for `check` to hold, polling; throws with `what` after `timeoutMs`. */
export async function waitFor(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function answers(url: string): Promise<number | undefined> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).status;
  } catch {
    return undefined;
  }
}

/** initdb and postgres refuse to run as root: as root they run as the `postgres` user, on a folder it owns. */
function asPostgres(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

function run(command: string, args: string[], what: string): string {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`${what} failed (${String(result.status)}):\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** A PostgreSQL cluster of the suite's own. */
export interface ThrowawayPostgres {
  url: string;
  stop(): void;
  start(): void;
  destroy(): void;
}

export async function startPostgres(
  tools: { initdb: string; pgCtl: string },
  root: string,
): Promise<ThrowawayPostgres> {
  const dir = path.join(root, 'pg');
  const data = path.join(dir, 'data');
  mkdirSync(dir, { recursive: true });
  if (process.getuid?.() === 0) {
    const uid = Number(run('id', ['-u', 'postgres'], 'id -u postgres'));
    const gid = Number(run('id', ['-g', 'postgres'], 'id -g postgres'));
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  run(
    ...asPostgres(tools.initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']),
    'initdb',
  );
  // Loopback only, its socket in its own folder; fsync off: a test cluster, restarted cleanly.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  const start = () =>
    void run(
      ...asPostgres(tools.pgCtl, ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']),
      'pg_ctl start',
    );
  // -m fast: what a restart by an operator or a failover does to the open connections (terminated).
  const stop = () =>
    void run(...asPostgres(tools.pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop']), 'pg_ctl stop');
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy() {
      try {
        run(...asPostgres(tools.pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']), 'pg_ctl stop');
      } catch {
        // already stopped
      }
    },
  };
}

/** A Redis of the suite's own, with an append-only file (docs/ops/production.md: sessions survive a restart). */
export interface ThrowawayRedis {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startRedis(redisServer: string, root: string): Promise<ThrowawayRedis> {
  const dir = path.join(root, 'redis');
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      redisServer,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
      ],
      { stdio: 'ignore' },
    );
    await waitFor(
      () => spawnSync('bash', ['-c', `exec 3<>/dev/tcp/127.0.0.1/${port}`]).status === 0,
      'redis-server to listen',
    );
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };
  await start();
  return { url: `redis://127.0.0.1:${port}/0`, start, stop };
}

/** One gateway replica. */
export interface Replica {
  name: string;
  url: string;
  env: NodeJS.ProcessEnv;
  process: ChildProcess;
  /** What it has written since it started. */
  logs(): string;
  alive(): boolean;
  stop(): Promise<void>;
}

async function startReplica(name: string, env: NodeJS.ProcessEnv): Promise<Replica> {
  const published = spawnSync(
    process.execPath,
    [path.join(GATEWAY_DIST, 'cli', 'releases.js'), 'publish-all'],
    {
      env,
      encoding: 'utf8',
    },
  );
  if (published.status !== 0)
    throw new Error(`publishing the remotes for ${name} failed:\n${published.stderr}`);
  const child = spawn(process.execPath, [path.join(GATEWAY_DIST, 'server.js')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${env.PORT}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${output}`);
      return (await answers(`${url}/readyz`)) === 200;
    },
    `${name} to be ready`,
    60_000,
  );
  return {
    name,
    url,
    env,
    process: child,
    logs: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** The replicas, their dependencies and the balancer. */
export interface Cluster {
  /** The balancer's origin: PUBLIC_URL of every replica. */
  url: string;
  replicas: Replica[];
  postgres: ThrowawayPostgres;
  redis: ThrowawayRedis;
  /** nginx's error log (upstream failures). */
  balancerLog(): string;
  stop(): Promise<void>;
}

/** Starts PostgreSQL, Redis, two replicas and nginx on `port` (loopback). */
export async function startCluster(port: number): Promise<Cluster> {
  const tools = clusterTools();
  if (!tools.ok) throw new Error(tools.reason);
  const root = mkdtempSync(path.join(tmpdir(), 'hr-identity-scale-'));
  // nginx's workers (nobody) and postgres must reach their folders under it.
  chmodSync(root, 0o755);
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(root, { recursive: true, force: true })];
  const stop = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    const postgres = await startPostgres(tools, root);
    cleanups.push(() => postgres.destroy());
    const redis = await startRedis(tools.redisServer, root);
    cleanups.push(() => redis.stop());

    const url = `http://127.0.0.1:${port}`;
    // Every replica gets the same keys and stores (docs/ops/production.md); its own DATA_DIR for the release files.
    const shared = {
      PUBLIC_URL: url,
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      SECRET_KEY: randomBytes(32).toString('hex'),
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      TRUST_PROXY: 'loopback',
      SEED_DEMO_DATA: 'true',
      DRAIN_SECONDS: '0',
      // The load comes from one machine: the per-source cap on new authorizations would refuse it.
      AUTHORIZATIONS_PER_MINUTE: '0',
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    };
    const replicas: Replica[] = [];
    for (const name of ['replica-1', 'replica-2']) {
      const dataDir = path.join(root, name);
      const replica = await startReplica(name, {
        ...process.env,
        ...shared,
        DATA_DIR: dataDir,
        PORT: String(await freePort()),
      });
      replicas.push(replica);
      cleanups.push(() => replica.stop());
    }

    const nginxDir = path.join(root, 'nginx');
    mkdirSync(nginxDir, { recursive: true });
    const site = readFileSync(path.join(REPO, 'docs', 'ops', 'nginx.conf'), 'utf8')
      .replaceAll('__LISTEN__', `127.0.0.1:${port}`)
      .replaceAll('__REPLICA_1__', `127.0.0.1:${replicas[0]!.env.PORT}`)
      .replaceAll('__REPLICA_2__', `127.0.0.1:${replicas[1]!.env.PORT}`);
    writeFileSync(path.join(nginxDir, 'identity.conf'), site);
    // The main configuration around the documented site file: everything in the suite's folder.
    writeFileSync(
      path.join(nginxDir, 'nginx.conf'),
      [
        'worker_processes 1;',
        `pid ${nginxDir}/nginx.pid;`,
        `error_log ${nginxDir}/error.log warn;`,
        'events { worker_connections 512; }',
        'http {',
        `  access_log ${nginxDir}/access.log;`,
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
          (kind) => `  ${kind}_temp_path ${nginxDir}/${kind}-temp;`,
        ),
        `  include ${nginxDir}/identity.conf;`,
        '}',
        '',
      ].join('\n'),
    );
    const nginx = spawn(
      tools.nginx,
      [
        '-p',
        nginxDir,
        '-c',
        path.join(nginxDir, 'nginx.conf'),
        '-e',
        path.join(nginxDir, 'error.log'),
        '-g',
        'daemon off;',
      ],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let nginxErrors = '';
    nginx.stderr?.on('data', (chunk: Buffer) => (nginxErrors += chunk.toString()));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          if (nginx.exitCode !== null) return resolve();
          nginx.once('exit', () => resolve());
          nginx.kill('SIGTERM');
        }),
    );
    await waitFor(async () => {
      if (nginx.exitCode !== null) throw new Error(`nginx exited with ${nginx.exitCode}:\n${nginxErrors}`);
      return (await answers(`${url}/readyz`)) === 200;
    }, 'nginx to answer');
    const balancerLog = () => {
      try {
        return readFileSync(path.join(nginxDir, 'error.log'), 'utf8');
      } catch {
        return '';
      }
    };
    return { url, replicas, postgres, redis, balancerLog, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
