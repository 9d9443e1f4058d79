// Instructions the gateway's main thread executes per password sign-in, counted by valgrind's callgrind: a figure
// that does not move with the machine's load or speed, for comparing two builds of the gateway (section 1's rates
// and CPU times move by ±5–10 % between runs of the same build on a shared 2-core machine; this count by < 0.5 %).
//
//   node bench/sign-in-instructions.mjs [--dist=gateway/dist] [--count=300] [--connections=2]
//
// The gateway runs under `valgrind --tool=callgrind` (every machine kind has it) with instrumentation off until the
// timed sign-ins: 50 users are made through the gateway's own store module with argon2id at m=8 KiB, t=1, so the
// hash (a thread-pool task, not the main thread's work) costs next to nothing under valgrind; each sign-in is a full
// `POST /api/Account/Login` with its own fresh session, as in section 1. One warm-up round of `count` sign-ins, then
// instrumentation on for `count` more, a dump, and the main thread's total (thread 1) over the sign-ins answered
// 209. Takes 1–3 minutes.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { mapLimit, newSession, postLogin } from './lib/account-client.mjs';
import { loadGatewayArgon2 } from './lib/argon2-bound.mjs';
import { GATEWAY_DIST, REPO, freePort, gatewayEnv, waitForHttp } from './lib/gateway.mjs';
import { BENCH_PASSWORD } from './lib/users.mjs';

const { values: opts } = parseArgs({
  options: { dist: { type: 'string' }, count: { type: 'string' }, connections: { type: 'string' } },
});
const dist = path.resolve(opts.dist ?? GATEWAY_DIST);
const count = Number(opts.count ?? 300);
const connections = Number(opts.connections ?? 2);
if (!Number.isInteger(count) || count < 10 || !Number.isInteger(connections) || connections < 1) {
  console.error('--count must be an integer ≥ 10 and --connections ≥ 1');
  process.exit(2);
}
try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  console.error('valgrind is not installed (apt-get install valgrind)');
  process.exit(2);
}

const port = await freePort();
const dataDir = mkdtempSync(path.join(tmpdir(), 'sign-in-instructions-'));
const base = `http://127.0.0.1:${port}`;
const env = gatewayEnv({ port, dataDir });
const out = path.join(dataDir, 'callgrind.out');
const log = openSync(path.join(dataDir, 'gateway.log'), 'a');
const child = spawn(
  'valgrind',
  [
    '--tool=callgrind',
    // V8 writes its compiled code into anonymous memory: valgrind must notice it changing there.
    '--smc-check=all-non-file',
    '--instr-atstart=no',
    '--separate-threads=yes',
    `--callgrind-out-file=${out}`,
    process.execPath,
    path.join(dist, 'server.js'),
  ],
  { cwd: REPO, env, stdio: ['ignore', log, log] },
);
let alive = true;
child.on('exit', () => (alive = false));
const control = (...args) =>
  execFileSync('callgrind_control', [...args, String(child.pid)], { stdio: 'ignore' });

try {
  await waitForHttp(`${base}/healthz`, 600_000, () => alive);
  const usernames = await makeUsers();
  await signIns(usernames); // warm-up: the code the sign-ins run is compiled and optimised as under load
  control('-i', 'on');
  const answered = await signIns(usernames);
  control('-d');
  control('-i', 'off');
  const main = readTotal(`${out}.1-01`);
  const all = readdirSync(dataDir)
    .filter((f) => f.startsWith('callgrind.out.1-'))
    .reduce((sum, f) => sum + readTotal(path.join(dataDir, f)), 0);
  console.log(`gateway: ${dist}`);
  console.log(`sign-ins answered 209: ${answered} of ${count} (${connections} connections)`);
  console.log(`main thread: ${Math.round(main / answered).toLocaleString('en-GB')} instructions per sign-in`);
  console.log(`all threads: ${Math.round(all / answered).toLocaleString('en-GB')} instructions per sign-in`);
} finally {
  if (alive) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
}

/** 50 users with a cheap argon2id hash, through the gateway's own store module on its DATA_DIR. */
async function makeUsers() {
  const load = (rel) => import(pathToFileURL(path.join(dist, rel)).href);
  const { loadConfig } = await load('config.js');
  const { openStore } = await load('store/store.js');
  const { hash } = await loadGatewayArgon2();
  const config = loadConfig(env);
  const store = await openStore({
    sqliteFile: path.join(config.dataDir, 'identity.db'),
    dataEncryptionKey: config.dataEncryptionKey,
  });
  try {
    const passwordHash = await hash(BENCH_PASSWORD, {
      algorithm: 2,
      memoryCost: 8,
      timeCost: 1,
      parallelism: 1,
    });
    const names = [];
    for (let i = 1; i <= 50; i++) {
      const username = `instructions-${i}`;
      await store.users.create({
        username,
        email: `${username}@bench.test`,
        passwordHash,
        roles: ['EMPLOYEE'],
      });
      names.push(username);
    }
    return names;
  } finally {
    await store.database.close();
  }
}

/** `count` sign-ins, each on a fresh session made beforehand; answers how many answered 209. */
async function signIns(usernames) {
  const sessions = await mapLimit(Array.from({ length: count }), 4, () => newSession(base));
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let next = 0;
  let answered = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < count) {
        const i = next++;
        if (
          (await postLogin(base, agent, sessions[i], usernames[i % usernames.length], BENCH_PASSWORD)) === 209
        )
          answered++;
      }
    }),
  );
  agent.destroy();
  return answered;
}

/** The instruction total of one callgrind output file. */
function readTotal(file) {
  const line = readFileSync(file, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('summary:') || l.startsWith('totals:'));
  return line ? Number(line.split(/\s+/)[1]) : 0;
}
