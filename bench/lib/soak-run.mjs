// Section 9's process: the soak (issue 54). Started by soak.section.mjs as `node --import tsx soak-run.mjs <minutes>
// <users>` so it can use the scale suite's own set-up (e2e/helpers/cluster.ts: a throwaway PostgreSQL and Redis, two
// replicas of the built gateway with the same keys, nginx with docs/ops/nginx.conf), never a copy of it. It prints one
// JSON line with the raw figures on stdout; progress goes to stderr.
//
// 1. The saturated sign-in rate through the balancer: closed loops of fresh session + Login (209), 4, 8 and 16 at a
//    time for 15 s each, the best rate counts.
// 2. The soak: arrivals at a fixed rate for `minutes`, open loop (latency from each arrival's scheduled time, as
//    lib/paced.mjs), ten sign-ins to one OIDC authorization-code round trip (a signed-in browser, single sign-on,
//    code for tokens) and one page load (the sign-in page's HTML and every script it names, brotli) — the sign-ins
//    at 70 % of the saturated rate. At most 256 arrivals in flight; one beyond that is counted as an error.
// 3. At the end of every minute: each replica's RSS and event-loop delay since the last reading (its /metrics),
//    PostgreSQL's connections (pg_stat_activity) and Redis's used memory (INFO).
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import path from 'node:path';
import { clusterTools, startCluster } from '../../e2e/helpers/cluster.ts';
import { call, newSession } from './account-client.mjs';
import { freePort, REPO } from './gateway.mjs';
import { authorizationCodeRoundTrip, signedInJar } from './oidc-client.mjs';
import { metricValue } from './soak-figures.mjs';
import { BENCH_PASSWORD, createBenchUsers } from './users.mjs';

const minutes = Number(process.argv[2] ?? 10);
const userCount = Number(process.argv[3] ?? 50);
const log = (m) => process.stderr.write(`[soak] ${m}\n`);
const MAX_IN_FLIGHT = 256;

const tools = clusterTools();
if (!tools.ok) {
  process.stdout.write(`${JSON.stringify({ skipped: tools.reason })}\n`);
  process.exit(0);
}

const metricsToken = randomBytes(24).toString('hex');
process.env.METRICS_TOKEN = metricsToken; // every replica's environment starts from this process's
const cluster = await startCluster(await freePort());
log(`cluster on ${cluster.url}: ${cluster.replicas.map((r) => `${r.name} ${r.url}`).join(', ')}`);

const requirePg = createRequire(path.join(REPO, 'gateway', 'package.json'));

/** PostgreSQL's client connections to the cluster's database. */
async function postgresConnections() {
  const { Client } = requirePg('pg');
  const client = new Client({ connectionString: cluster.postgres.url });
  await client.connect();
  try {
    const { rows } = await client.query(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return rows[0].n;
  } finally {
    await client.end();
  }
}

/** Redis's `used_memory` (INFO memory), over a plain socket. */
function redisUsedBytes() {
  const url = new URL(cluster.redis.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let text = '';
    socket.setTimeout(5000, () => socket.destroy(new Error('Redis INFO timed out')));
    socket.on('error', reject);
    socket.on('data', (d) => {
      text += d;
      const m = text.match(/used_memory:(\d+)/);
      if (m) {
        socket.end();
        resolve(Number(m[1]));
      }
    });
    socket.write('INFO memory\r\n');
  });
}

/** One reading of every replica (RSS, event-loop delay since the last reading) and of the stores. */
async function reading(minute) {
  const replicas = [];
  for (const r of cluster.replicas) {
    const res = await fetch(`${r.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    const text = await res.text();
    replicas.push({
      name: r.name,
      rssBytes: metricValue(text, 'process_memory_bytes', { kind: 'rss' }),
      lagP99Ms: (metricValue(text, 'nodejs_eventloop_lag_seconds', { quantile: '0.99' }) ?? NaN) * 1000,
      lagMaxMs: (metricValue(text, 'nodejs_eventloop_lag_seconds', { quantile: '1' }) ?? NaN) * 1000,
    });
  }
  return {
    minute,
    replicas,
    postgresConnections: await postgresConnections().catch(() => undefined),
    redisUsedBytes: await redisUsedBytes().catch(() => undefined),
  };
}

let next = 0;
/**
 * A fresh session and a password sign-in answered 209. Each bench user signs in from an address of its own, as people
 * do: the client's `X-Forwarded-For`, which nginx passes on with its own hop appended and the replicas trust from
 * loopback (TRUST_PROXY). From one address, the per-source throttle and captcha risk (ADR 0004, 0014) would judge
 * the whole soak as one client.
 */
async function signIn(usernames) {
  const n = next++ % usernames.length;
  const { jar } = await newSession(cluster.url);
  const res = await call(
    cluster.url,
    jar,
    'POST',
    '/api/Account/Login',
    { username: usernames[n], password: BENCH_PASSWORD, rememberMe: false, returnUrl: '/' },
    { 'x-forwarded-for': `10.54.${Math.floor(n / 250)}.${(n % 250) + 1}` },
  );
  if (res.status !== 209)
    throw new Error(
      `Login answered ${res.status} ${JSON.stringify(res.json?.errors ?? res.json?.code ?? '')}`,
    );
}

/**
 * The sign-in page as a browser loads it cold: the HTML, then every shell script it names (brotli) — as `src` or,
 * behind a page drawn ahead, in the list its after-paint loader appends (http/render-shell-html.ts).
 */
async function pageLoad() {
  const res = await fetch(`${cluster.url}/account/login`, { headers: { accept: 'text/html' } });
  const html = await res.text();
  if (res.status !== 200) throw new Error(`/account/login answered ${res.status}`);
  const scripts = [...new Set([...html.matchAll(/"(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]))];
  if (scripts.length === 0) throw new Error('the sign-in page names no script');
  for (const src of scripts) {
    const script = await fetch(new URL(src, cluster.url), { headers: { 'accept-encoding': 'br' } });
    await script.arrayBuffer();
    if (script.status !== 200) throw new Error(`${src} answered ${script.status}`);
  }
}

/** Signed-in browsers for OIDC round trips, each in one round trip at a time (a browser's flows share cookies). */
const idleBrowsers = [];
async function oidcRoundTrip(usernames) {
  const jar =
    idleBrowsers.pop() ??
    (await signedInJar(cluster.url, usernames[next++ % usernames.length], BENCH_PASSWORD));
  try {
    await authorizationCodeRoundTrip(cluster.url, jar);
  } finally {
    idleBrowsers.push(jar);
  }
}

try {
  const gw = { env: /** @type {Record<string,string>} */ (cluster.replicas[0].env) };
  const { usernames } = await createBenchUsers(gw, userCount);
  log(`${usernames.length} bench users`);

  // 1. Saturated sign-in rate through the balancer.
  const saturation = [];
  for (const concurrency of [4, 8, 16]) {
    let done = 0;
    let failed = 0;
    const end = performance.now() + 15_000;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < end) {
          await signIn(usernames).then(
            () => (done += 1),
            () => (failed += 1),
          );
        }
      }),
    );
    const rate = done / ((performance.now() - t0) / 1000);
    saturation.push({ concurrency, rate, failed });
    log(`saturation: ${concurrency} at a time → ${rate.toFixed(1)} sign-ins/s (${failed} failed)`);
  }
  const saturated = Math.max(...saturation.map((s) => s.rate));
  const signInRate = 0.7 * saturated;
  const arrivalRate = (signInRate * 12) / 10;

  // OIDC round trips reuse signed-in browsers (single sign-on), as returning users do; one more signs in when all
  // are busy.
  for (const username of usernames.slice(0, 8))
    idleBrowsers.push(await signedInJar(cluster.url, username, BENCH_PASSWORD));

  // 2. The soak, open loop.
  log(`soak: ${minutes} min at ${arrivalRate.toFixed(1)} arrivals/s (sign-ins ${signInRate.toFixed(1)}/s)`);
  const samples = [];
  const readings = [];
  const total = Math.round(arrivalRate * minutes * 60);
  const interval = 1000 / arrivalRate;
  let inFlight = 0;
  const pending = [];
  const t0 = performance.now() + 20;
  let minuteDone = 0;
  await reading(0); // resets each replica's event-loop delay window
  for (let i = 0; i < total; i += 1) {
    const scheduled = t0 + i * interval;
    const wait = scheduled - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const kind = i % 12 === 5 ? 'oidc' : i % 12 === 11 ? 'page' : 'signIn';
    const scheduledMs = scheduled - t0;
    // The end of a minute: read the replicas and stores (outside the arrivals' timing: they run concurrently).
    const minute = Math.floor(scheduledMs / 60_000);
    if (minute > minuteDone) {
      minuteDone = minute;
      pending.push(reading(minute).then((r) => readings.push(r)));
      log(`minute ${minute} done`);
    }
    if (inFlight >= MAX_IN_FLIGHT) {
      samples.push({ kind, scheduledMs, ok: false, what: 'dropped (256 in flight)' });
      continue;
    }
    inFlight += 1;
    const work =
      kind === 'signIn' ? signIn(usernames) : kind === 'oidc' ? oidcRoundTrip(usernames) : pageLoad();
    pending.push(
      work
        .then(
          () => samples.push({ kind, scheduledMs, ok: true, latencyMs: performance.now() - scheduled }),
          (e) =>
            samples.push({ kind, scheduledMs, ok: false, what: e instanceof Error ? e.message : String(e) }),
        )
        .finally(() => (inFlight -= 1)),
    );
  }
  await Promise.all(pending);
  readings.push(await reading(minutes));
  readings.sort((a, b) => a.minute - b.minute);
  const balancerErrors = cluster
    .balancerLog()
    .split('\n')
    .filter((l) => /\[(?:error|crit|alert|emerg)\]/.test(l));
  process.stdout.write(
    `${JSON.stringify({
      minutes,
      users: usernames.length,
      saturation,
      saturated,
      signInRate,
      arrivalRate,
      samples,
      readings,
      replicasAlive: cluster.replicas.map((r) => ({ name: r.name, alive: r.alive() })),
      balancerErrors: balancerErrors.slice(0, 20),
      errorKinds: Object.entries(
        samples.filter((s) => !s.ok).reduce((n, s) => ({ ...n, [s.what]: (n[s.what] ?? 0) + 1 }), {}),
      ),
    })}\n`,
  );
} finally {
  await cluster.stop();
}
