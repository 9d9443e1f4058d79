// tmp: CPU (user+sys) per sign-in of the gateway process and of its main thread, two builds alternately.
import http from 'node:http';
import { readFileSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CSRF_SUFFIX, mapLimit, newSession } from './lib/account-client.mjs';
import { freePort, gatewayEnv, waitForHttp, REPO } from './lib/gateway.mjs';
import { BENCH_PASSWORD } from './lib/users.mjs';
const dists = process.argv.slice(2);
const ticks = (pid, tid) => {
  const f = readFileSync(tid ? `/proc/${pid}/task/${tid}/stat` : `/proc/${pid}/stat`, 'utf8');
  const p = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return Number(p[11]) + Number(p[12]);
};
async function one(dist) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cpuab-'));
  const env = gatewayEnv({ port, dataDir });
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(dist, 'server.js')], {
    cwd: REPO,
    env,
    stdio: ['ignore', openSync(path.join(dataDir, 'log'), 'a'), 'inherit'],
  });
  await waitForHttp(`${base}/healthz`, 60000);
  const load = (rel) => import(pathToFileURL(path.join(dist, rel)).href);
  const { loadConfig } = await load('config.js');
  const { openStore } = await load('store/store.js');
  const { hashPassword } = await load('identity/passwords/passwords.service.js');
  const config = loadConfig(env);
  const store = await openStore({
    sqliteFile: path.join(config.dataDir, 'identity.db'),
    dataEncryptionKey: config.dataEncryptionKey,
  });
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const users = [];
  for (let i = 0; i < 50; i++) {
    const username = `ab-${i}`;
    await store.users.create({ username, email: `${username}@b.test`, passwordHash, roles: ['EMPLOYEE'] });
    users.push(username);
  }
  await store.database.close();
  const run = async (n) => {
    const sessions = await mapLimit(Array.from({ length: n }), 4, () => newSession(base));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    let next = 0,
      ok = 0;
    const t0 = ticks(child.pid),
      m0 = ticks(child.pid, child.pid),
      w0 = performance.now();
    await Promise.all(
      [0, 1, 2, 3].map(async () => {
        while (next < n) {
          const i = next++;
          const body = JSON.stringify({
            username: users[i % 50],
            password: BENCH_PASSWORD,
            rememberMe: false,
            returnUrl: '/',
          });
          const st = await new Promise((res, rej) => {
            const r = http.request(
              `${base}/api/Account/Login`,
              {
                method: 'POST',
                agent,
                headers: {
                  'content-type': 'application/json',
                  'content-length': Buffer.byteLength(body),
                  'x-requested-with': 'XMLHttpRequest',
                  cookie: sessions[i].cookie,
                  [CSRF_SUFFIX]: sessions[i].csrf,
                },
              },
              (rr) => {
                rr.resume();
                rr.on('end', () => res(rr.statusCode));
              },
            );
            r.on('error', rej);
            r.end(body);
          });
          if (st === 209) ok++;
        }
      }),
    );
    const wall = performance.now() - w0;
    agent.destroy();
    return {
      ok,
      procMs: ((ticks(child.pid) - t0) * 10) / ok,
      mainMs: ((ticks(child.pid, child.pid) - m0) * 10) / ok,
      rate: (ok / wall) * 1000,
    };
  };
  await run(300);
  const r = await run(2000);
  child.kill('SIGTERM');
  await new Promise((res) => child.once('exit', res));
  rmSync(dataDir, { recursive: true, force: true });
  return r;
}
for (let round = 0; round < 3; round++)
  for (const d of dists) {
    const r = await one(d);
    console.log(
      d.split('/').slice(-3).join('/'),
      `ok ${r.ok} process ${r.procMs.toFixed(3)} ms/sign-in, main ${r.mainMs.toFixed(3)} ms, rate ${r.rate.toFixed(0)}/s`,
    );
  }
process.exit(0);
