// Where the gateway's main thread goes during password sign-ins, beside the bare sign-in server's (issue 54: "find
// where the remaining 7 % goes"). Each server runs as its own process with the inspector on a loopback port; the same
// closed-loop load as section 1 (a fresh session made beforehand for each sign-in, `POST /api/Account/Login`, the
// deployed argon2id on the hash threads) runs for a warm-up, then the V8 sampling profiler records the main thread for
// the timed part only. The result is the main thread's busy time per sign-in answered 209, by library
// (lib/cpu-profile.mjs), and the functions that spend most of it.
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { mapLimit, newSession, postLogin } from './account-client.mjs';
import { largest, summarizeProfile } from './cpu-profile.mjs';
import { forkServer } from './fork-server.mjs';
import { freePort, startGateway } from './gateway.mjs';
import { BENCH_PASSWORD, viaStore } from './users.mjs';

const BARE_SIGN_IN = fileURLToPath(new URL('../bare-sign-in.mjs', import.meta.url));

/** A minimal CDP client on the inspector of the process listening on `port`. */
async function inspect(port) {
  const deadline = Date.now() + 15_000;
  let targets;
  for (;;) {
    try {
      targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
      break;
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const ws = new WebSocket(targets[0].webSocketDebuggerUrl, { maxPayload: 1 << 30 });
  await once(ws, 'open');
  let id = 0;
  const pending = new Map();
  ws.on('message', (data) => {
    const m = JSON.parse(String(data));
    const p = m.id !== undefined && pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error) p.reject(new Error(`${m.error.message} (${m.error.code})`));
    else p.resolve(m.result);
  });
  return {
    send(method, params = {}) {
      id += 1;
      ws.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
    },
    close: () => ws.close(),
  };
}

/** Sessions for `count` sign-ins (the gateway's: fresh, with their anti-forgery token), or none (the bare server). */
function sessionsFor(base, count, withSessions) {
  return withSessions
    ? mapLimit(Array.from({ length: count }), 4, () => newSession(base))
    : Promise.resolve(Array.from({ length: count }, () => null));
}

/** Closed loops of sign-ins on `connections` connections for `ms`, one session each; stops early when they run out. */
async function signIns({ base, usernames, connections, ms, sessions }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const end = performance.now() + ms;
  let next = 0;
  let answered = 0;
  let other = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end && next < sessions.length) {
        const i = next++;
        const status = await postLogin(
          base,
          agent,
          sessions[i],
          usernames[i % usernames.length],
          BENCH_PASSWORD,
        );
        if (status === 209) answered += 1;
        else other += 1;
      }
    }),
  );
  agent.destroy();
  return { answered, other };
}

/** Profiles one server already listening on `base` with its inspector on `inspectPort`. */
async function profileOne({ base, inspectPort, usernames, connections, seconds, withSessions }) {
  // Enough sessions for more than the rate this machine reaches (≈ 250 sign-ins/s); the loop stops if they run out.
  const count = Math.max(200, Math.ceil(seconds * 400));
  const warm = await sessionsFor(base, 400, withSessions);
  await signIns({ base, usernames, connections, ms: 3000, sessions: warm }); // code optimised as under load
  const cdp = await inspect(inspectPort);
  try {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
    // The sessions are made before the profiler starts: only the sign-ins are in the profile.
    const sessions = await sessionsFor(base, count, withSessions);
    await cdp.send('Profiler.start');
    const { answered, other } = await signIns({ base, usernames, connections, ms: seconds * 1000, sessions });
    const { profile } = await cdp.send('Profiler.stop');
    return { answered, other, profile, ...summarizeProfile(profile) };
  } finally {
    cdp.close();
  }
}

/**
 * The gateway's and the bare sign-in server's main thread per sign-in, by library.
 * @param {{seconds?: number, connections?: number, users?: number, profileDir?: string, log?: (m: string) => void}} [o]
 *   `profileDir`: where to write both raw profiles (`gateway.cpuprofile`, `bare.cpuprofile`, for DevTools' Performance panel)
 */
export async function profileSignIns(o = {}) {
  const seconds = o.seconds ?? 15;
  const connections = o.connections ?? 4;
  const log = o.log ?? (() => {});
  const usernames = Array.from({ length: o.users ?? 50 }, (_, i) => `profile-user-${i + 1}`);
  const out = {};

  const gwInspect = await freePort();
  const gw = await startGateway({ nodeArgs: [`--inspect=127.0.0.1:${gwInspect}`] });
  try {
    log(`profile: ${usernames.length} users in the gateway's store`);
    await viaStore(gw, usernames);
    log(`profile: gateway, ${seconds} s of sign-ins on ${connections} connections`);
    out.gateway = await profileOne({
      base: gw.base,
      inspectPort: gwInspect,
      usernames,
      connections,
      seconds,
      withSessions: true,
    });
  } finally {
    await gw.stop();
  }

  const bareInspect = await freePort();
  const bare = await forkServer(BARE_SIGN_IN, [`--inspect=127.0.0.1:${bareInspect}`]);
  try {
    log(`profile: bare sign-in server, ${seconds} s on ${connections} connections`);
    out.bare = await profileOne({
      base: `http://127.0.0.1:${bare.port}`,
      inspectPort: bareInspect,
      usernames,
      connections,
      seconds,
      withSessions: false,
    });
  } finally {
    bare.stop();
  }
  // The folder the profiles go to is made if it is not there (`--out=<folder>`).
  if (o.profileDir) mkdirSync(o.profileDir, { recursive: true });
  for (const side of /** @type {const} */ (['gateway', 'bare'])) {
    if (o.profileDir)
      writeFileSync(path.join(o.profileDir, `${side}.cpuprofile`), JSON.stringify(out[side].profile));
    delete out[side].profile;
  }
  return out;
}

/** Lines for a terminal or the README: per sign-in ms by library, both servers, and the gateway's top functions. */
export function formatProfile(result, { libraries = 18, functions = 20 } = {}) {
  const { gateway, bare } = result;
  const per = (side, ms) => (side.answered ? ms / side.answered : NaN);
  const fmt = (n) => (Number.isFinite(n) ? n.toFixed(3) : 'n/a');
  const lines = [];
  lines.push(
    `sign-ins answered 209: gateway ${gateway.answered} (other ${gateway.other}), bare ${bare.answered} (other ${bare.other})`,
    `main thread busy per sign-in: gateway ${fmt(per(gateway, gateway.busyMs))} ms, bare ${fmt(per(bare, bare.busyMs))} ms`,
    '',
    '| library (main thread, ms per sign-in) | gateway | bare |',
    '| --- | ---: | ---: |',
  );
  const libs = new Set([...largest(gateway.byLibrary, libraries).map(([k]) => k)]);
  for (const [k] of largest(bare.byLibrary, 6)) libs.add(k);
  for (const lib of [...libs].sort(
    (a, b) => (gateway.byLibrary.get(b) ?? 0) - (gateway.byLibrary.get(a) ?? 0),
  )) {
    lines.push(
      `| ${lib} | ${fmt(per(gateway, gateway.byLibrary.get(lib) ?? 0))} | ${fmt(per(bare, bare.byLibrary.get(lib) ?? 0))} |`,
    );
  }
  lines.push('', `| the gateway's busiest functions (self, ms per sign-in) | ms |`, '| --- | ---: |');
  for (const [name, ms] of largest(gateway.byFunction, functions)) {
    lines.push(`| \`${name}\` | ${fmt(per(gateway, ms))} |`);
  }
  return lines;
}
