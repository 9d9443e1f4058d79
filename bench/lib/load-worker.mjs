// The load generator process. The bench forks this file so autocannon's own CPU use is a separate process from the
// runner (and from the server under test); on 2 cores they still compete, which README.md explains.
// Protocol: the parent sends one {type:'run', job} message; the worker answers {type:'result', result} or
// {type:'error', message} and exits.
import autocannon from 'autocannon';
import { cpuPerUnit, cpuReading } from './cpu-split.mjs';
import { runPaced } from './paced.mjs';
import { CSRF_SUFFIX, mapLimit, newSession } from './account-client.mjs';
import { authorizationCodeRoundTrip, signedInJar, tokenRequest } from './oidc-client.mjs';

/**
 * @typedef {{method: string, path: string, headers?: Record<string,string>, body?: string}} FixedRequest
 * @typedef {{kind: 'fixed', url: string, connections?: number, rate?: number, duration: number, amount?: number,
 *   request: FixedRequest, expectStatus?: number, serverPid?: number}} FixedJob
 * @typedef {{kind: 'login', url: string, connections?: number, rate?: number, duration: number, poolSize: number,
 *   usernames: string[], password: string, loginPath: string, expectStatus: number, serverPid?: number}} LoginJob
 */

/** Runs one autocannon instance and collects raw latencies (fractional ms) and status counts. */
function runInstance(opts, samples, statuses, statusFilter) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ pipelining: 1, timeout: 30, ...opts }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      if (statusFilter === undefined || statusCode === statusFilter) samples.push(responseTime);
    });
  });
}

function summary(samples, statuses, elapsedMs, errors, countStatus) {
  const sorted = Float64Array.from(samples).sort();
  const pick = (p) =>
    sorted.length
      ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
      : NaN;
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  const counted = countStatus === undefined ? total : (statuses[countStatus] ?? 0);
  return {
    elapsedMs,
    total,
    counted,
    perSecond: counted / (elapsedMs / 1000),
    statuses,
    errors,
    p50: pick(50),
    p90: pick(90),
    p95: pick(95),
    p99: pick(99),
    mean: sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : NaN,
  };
}

/** p50/p99/max of the generator's own lag (send time − scheduled time), in ms. */
function lagSummary(lags) {
  const sorted = Float64Array.from(lags).sort();
  const at = (p) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] : NaN;
  return { p50: at(0.5), p99: at(0.99), max: sorted.length ? sorted[sorted.length - 1] : NaN };
}

/**
 * An open-loop run at `job.rate` for `job.duration` s (paced.mjs): the latencies of the `job.expectStatus` answers
 * (all answers without one, as for the closed-loop runs: the statuses list the rest), the statuses, the errors and
 * dropped arrivals, and the generator's own lag.
 * @param {{url: string, rate: number, duration: number, expectStatus?: number}} job
 * @param {() => import('./paced.mjs').PacedRequest} makeRequest
 */
async function paced(job, makeRequest) {
  const r = await runPaced({ url: job.url, rate: job.rate, durationS: job.duration, makeRequest });
  const samples = r.latencyMs.filter(
    (_, i) => job.expectStatus === undefined || r.answerStatus[i] === job.expectStatus,
  );
  return { samples, statuses: r.statuses, errors: r.errors + r.dropped, lag: lagSummary(r.sentLagMs) };
}

/**
 * The same request over and over: closed loop on `connections` (autocannon), or open loop at a fixed `rate` (paced.mjs,
 * latency from the schedule, only `expectStatus` answers timed).
 * @param {FixedJob} job
 */
async function runFixed(job) {
  const samples = [];
  const statuses = {};
  const t0 = performance.now();
  if (job.rate) {
    const r = await paced(job, () => ({ headers: {}, ...job.request }));
    const out = summary(r.samples, r.statuses, job.duration * 1000, r.errors, job.expectStatus);
    out.generatorLag = r.lag;
    return out;
  }
  // The closed loop reads the CPU split as the sign-in runs do (section 1's bare server beside the gateway).
  const reading0 = cpuReading(job.serverPid);
  const cpu0 = process.cpuUsage();
  const result = await runInstance(
    {
      url: job.url + job.request.path,
      connections: job.connections,
      duration: job.duration,
      amount: job.amount,
      method: job.request.method,
      headers: job.request.headers,
      body: job.request.body,
    },
    samples,
    statuses,
    job.expectStatus,
  );
  const elapsed = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const out = summary(samples, statuses, elapsed, result.errors + result.timeouts, job.expectStatus);
  out.cpu = cpuPerUnit(reading0, cpuReading(job.serverPid), out.total, (cpu.user + cpu.system) / 1000);
  return out;
}

/**
 * Full password sign-ins: every request uses its own fresh session (made before the clock starts) and rotates
 * through the bench users, so session fixation rules and per-account throttles do not distort the figure.
 * @param {LoginJob} job
 */
async function runLogin(job) {
  const pool = await mapLimit(Array.from({ length: job.poolSize }), 8, () => newSession(job.url));
  let next = 0;
  const setupRequest = (req) => {
    const i = next;
    next += 1;
    const session = pool[i % pool.length];
    const username = job.usernames[i % job.usernames.length];
    req.headers = {
      ...req.headers,
      'content-type': 'application/json',
      accept: 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      cookie: session.cookie,
      [CSRF_SUFFIX]: session.csrf,
    };
    req.body = JSON.stringify({ username, password: job.password, rememberMe: false, returnUrl: '/' });
    return req;
  };
  const requests = [{ method: 'POST', path: job.loginPath, setupRequest }];
  const samples = [];
  const statuses = {};
  let errors = 0;
  let pacedLag;
  // CPU readings around the timed part only (the sessions above are made before it): the machine, the server
  // (job.serverPid) and this generator itself, which shares the machine's cores with the server.
  const reading0 = cpuReading(job.serverPid);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  if (job.rate) {
    // Fixed rate, open loop, one scheduler (paced.mjs): arrivals evenly spaced, latency from the scheduled time.
    const r = await paced(job, () => {
      const req = setupRequest({ headers: {} });
      return { method: 'POST', path: job.loginPath, headers: req.headers, body: req.body };
    });
    for (const [status, n] of Object.entries(r.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
    samples.push(...r.samples);
    errors += r.errors;
    pacedLag = r.lag;
  } else {
    // Bounded in time (duration) and in count (never more requests than fresh sessions).
    const r = await runInstance(
      {
        url: job.url,
        connections: job.connections,
        duration: job.duration,
        maxOverallRequests: job.poolSize,
        requests,
      },
      samples,
      statuses,
      job.expectStatus,
    );
    errors += r.errors + r.timeouts;
  }
  const elapsed = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const reading = cpuReading(job.serverPid);
  // Paced runs: the offered rate is known; the wait for the last answers is not load.
  const out = summary(samples, statuses, job.rate ? job.duration * 1000 : elapsed, errors, job.expectStatus);
  out.poolExhausted = next >= job.poolSize;
  // Where the machine's CPU went per answer during the run (section 1's CPU split), where /proc can be read.
  out.cpu = cpuPerUnit(reading0, reading, out.total, (cpu.user + cpu.system) / 1000);
  if (pacedLag) out.generatorLag = pacedLag;
  return out;
}

/**
 * OIDC flows are multi-step with cookies, which autocannon cannot chain; a closed loop of `connections` virtual
 * users with fetch (keep-alive) does it. Each virtual user signs in once (not timed), then repeats its flow.
 * @param {{kind: 'oidc', flow: 'code' | 'refresh', url: string, connections: number, duration: number,
 *   usernames: string[], password: string}} job
 */
async function runOidc(job) {
  const users = await mapLimit(Array.from({ length: job.connections }), 4, async (_, i) => {
    const jar = await signedInJar(job.url, job.usernames[i % job.usernames.length], job.password);
    // First round trip (not timed) sets up the OIDC session and grant; the refresh flow needs its refresh token.
    const first = await authorizationCodeRoundTrip(
      job.url,
      jar,
      job.flow === 'refresh' ? { scope: 'openid profile offline_access', prompt: 'consent' } : {},
    );
    if (job.flow === 'refresh' && !first.tokens.refresh_token)
      throw new Error('no refresh_token issued for offline_access');
    return { jar, refreshToken: first.tokens.refresh_token, firstHops: first.hops };
  });
  const samples = [];
  const hops = {};
  let count = 0;
  let errors = 0;
  let firstError;
  const t0 = performance.now();
  const end = t0 + job.duration * 1000;
  await Promise.all(
    users.map(async (u) => {
      while (performance.now() < end) {
        const t = performance.now();
        try {
          if (job.flow === 'refresh') {
            const tokens = await tokenRequest(job.url, {
              grant_type: 'refresh_token',
              refresh_token: u.refreshToken,
            });
            u.refreshToken = tokens.refresh_token ?? u.refreshToken;
          } else {
            const r = await authorizationCodeRoundTrip(job.url, u.jar);
            hops[r.hops] = (hops[r.hops] ?? 0) + 1;
          }
          samples.push(performance.now() - t);
          count += 1;
        } catch (e) {
          errors += 1;
          firstError ??= e instanceof Error ? e.message : String(e);
          if (errors > 20) throw new Error(`too many failures; first: ${firstError}`);
        }
      }
    }),
  );
  const elapsed = performance.now() - t0;
  const out = summary(samples, { ok: count }, elapsed, errors);
  return { ...out, hops, firstHops: users.map((u) => u.firstHops), firstError };
}

process.once('message', (msg) => {
  const job = msg.job;
  const work = job.kind === 'login' ? runLogin(job) : job.kind === 'oidc' ? runOidc(job) : runFixed(job);
  work.then(
    (result) => process.send({ type: 'result', result }, () => process.exit(0)),
    (err) =>
      process.send({ type: 'error', message: err instanceof Error ? err.stack : String(err) }, () =>
        process.exit(1),
      ),
  );
});
