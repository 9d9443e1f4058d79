// Section 2: light account endpoints against a bare Express 5 "hello" server, same load settings, same run.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CSRF_SUFFIX, newSession } from './account-client.mjs';
import { forkServer } from './fork-server.mjs';
import { runLoad } from './load.mjs';
import { summarize } from './stats.mjs';
import { row } from './table.mjs';

const S = '2';
const BARE = fileURLToPath(new URL('../bare-express.mjs', import.meta.url));

/**
 * CPU time a process has used so far in µs (user + system, from /proc; Linux's clock ticks of 10 ms), or undefined
 * where there is no /proc (the CPU figures are then left out). Read around each run, it gives the server's CPU per
 * call: the time the process ran, not the time it waited for a core (bench/README.md section 2).
 */
function cpuMicros(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

/** Runs one load and adds the server's CPU per 2xx answer (µs) when it can be read. */
async function measured(pid, options) {
  const before = cpuMicros(pid);
  const result = await runLoad(options);
  const after = cpuMicros(pid);
  const answered = ok(result);
  result.cpuMicrosPerCall =
    before === undefined || after === undefined || answered === 0 ? undefined : (after - before) / answered;
  return result;
}

/** The 2xx answers of a run. */
function ok(r) {
  return Object.entries(r.statuses)
    .filter(([s]) => Number(s) >= 200 && Number(s) < 300)
    .reduce((n, [, c]) => n + c, 0);
}

/** Checks once that a call answers 2xx, so a broken endpoint fails the bench instead of being measured. */
async function check(base, request, name) {
  const res = await fetch(base + request.path, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  await res.arrayBuffer();
  if (res.status < 200 || res.status >= 300) {
    throw new Error(
      `${request.method} ${name} answered ${res.status}; the light-endpoint section needs a 2xx answer`,
    );
  }
  return res.status;
}

/**
 * @param {{base: string, rounds: number, quick: boolean, log: (m: string) => void}} ctx
 */
/** What Chromium sends for a visitor whose browser is set to British English. */
const ACCEPT_LANGUAGE = 'en-GB,en;q=0.9';

export async function runLight(ctx) {
  const rows = [];
  const data = { settings: {}, endpoints: {} };
  const settings = { connections: 10, duration: ctx.quick ? 3 : 4, pipelining: 1 };
  data.settings = settings;
  const session = await newSession(ctx.base);
  // As the pages send them (shared-contracts/api's base query): the POST calls carry the anti-forgery header and no
  // body (fetch sends `Content-Length: 0`; autocannon is told so, fetch in check() adds it itself). Until 2026-11-25
  // the bench sent a `{}` JSON body the pages never send, so it also measured a JSON parse no page asks for. A
  // browser always sends its languages (Accept-Language); until 2026-11-25 the bench sent none, so every call also
  // looked up the partner's default language, which no browser's call does. Bare Express gets the same header.
  const browser = { accept: 'application/json', 'accept-language': ACCEPT_LANGUAGE };
  const headers = {
    cookie: session.cookie,
    [CSRF_SUFFIX]: session.csrf,
    ...browser,
    'x-requested-with': 'XMLHttpRequest',
  };
  const getHeaders = {
    cookie: headers.cookie,
    ...browser,
    'x-requested-with': 'XMLHttpRequest',
  };
  // SPEC.md §7: calls are POST unless marked GET; User also answers GET, the cheaper form a page uses.
  const calls = [
    { name: 'User', method: 'GET', path: '/api/Account/User?returnUrl=%2F' },
    { name: 'GetPartnerMetaData', method: 'POST', path: '/api/Account/GetPartnerMetaData' },
    { name: 'LoginView', method: 'POST', path: '/api/Account/LoginView?returnUrl=%2F' },
  ];
  const targets = [];
  for (const c of calls) {
    const request =
      c.method === 'GET'
        ? { method: 'GET', path: c.path, headers: getHeaders, body: undefined }
        : { method: c.method, path: c.path, headers, body: undefined };
    const probeStatus = await check(ctx.base, request, c.name);
    if (c.method !== 'GET') request.headers = { ...headers, 'content-length': '0' };
    targets.push({ ...c, probeStatus, request });
  }

  const bare = await forkServer(BARE);
  const bareUrl = `http://127.0.0.1:${bare.port}`;
  const results = { bare: [] };
  for (const t of targets) results[t.name] = [];
  try {
    // Interleaved rounds (bare, then each endpoint) so a noisy moment hurts all of them alike.
    for (let round = 0; round < ctx.rounds; round += 1) {
      results.bare.push(
        await measured(bare.pid, {
          kind: 'fixed',
          url: bareUrl,
          ...settings,
          request: { method: 'GET', path: '/', headers: browser },
        }),
      );
      for (const t of targets) {
        results[t.name].push(
          await measured(ctx.gw?.pid, { kind: 'fixed', url: ctx.base, ...settings, request: t.request }),
        );
      }
    }
  } finally {
    bare.stop();
  }

  const perSecond = (r) => ok(r) / (r.elapsedMs / 1000);
  const rps = (runs) => summarize(runs.map(perSecond));
  const cpu = (runs) =>
    runs.every((r) => r.cpuMicrosPerCall !== undefined)
      ? summarize(runs.map((r) => r.cpuMicrosPerCall))
      : undefined;
  const bareCpu = cpu(results.bare);
  const p99 = (runs) => summarize(runs.map((r) => r.p99));
  const bareRps = rps(results.bare);
  const bareP99 = p99(results.bare);
  data.bare = { rps: bareRps, p99: bareP99 };
  rows.push(
    row(
      S,
      `bare Express 5 hello (${settings.connections} connections, ${settings.duration} s, pipelining 1)`,
      'req/s',
      bareRps,
    ),
  );
  rows.push(row(S, '    bare Express p99', 'ms', bareP99));
  if (bareCpu) {
    data.bare.cpuMicrosPerCall = bareCpu;
    rows.push(row(S, '    bare Express CPU per answer', 'µs', bareCpu));
  }
  for (const t of targets) {
    const runs = results[t.name];
    const r = rps(runs);
    const p = p99(runs);
    const statuses = runs.map((x) => x.statuses);
    data.endpoints[t.name] = { method: t.method, rps: r, p99: p, statuses, probeStatus: t.probeStatus };
    const non2xx = runs.reduce((n, x) => n + (x.total - ok(x)), 0);
    const note = non2xx ? `${non2xx} non-2xx answers not counted: ${JSON.stringify(statuses[0])}` : '';
    rows.push(row(S, `${t.method} ${t.name}`, 'req/s', r, note));
    // Each round's call against the bare server's run of the same round (they run back to back), then the median:
    // a slow stretch of the machine then lowers both sides of one ratio instead of one side of another.
    const paired = summarize(runs.map((x, i) => perSecond(x) / perSecond(results.bare[i])));
    data.endpoints[t.name].ratioToBare = paired;
    rows.push(row(S, '    ÷ bare Express req/s (same round)', '×', paired, 'bound 1.0', 3));
    const c = cpu(runs);
    if (c && bareCpu) {
      const cpuRatio = summarize(runs.map((x, i) => results.bare[i].cpuMicrosPerCall / x.cpuMicrosPerCall));
      data.endpoints[t.name].cpuMicrosPerCall = c;
      data.endpoints[t.name].bareCpuRatio = cpuRatio;
      rows.push(row(S, `    ${t.name} server CPU per answer`, 'µs', c));
      rows.push(row(S, '    bare Express CPU ÷ this CPU (same round)', '×', cpuRatio, 'bound 1.0', 3));
    }
    rows.push(row(S, `    ${t.name} p99`, 'ms', p));
    rows.push(
      row(
        S,
        '    p99 ÷ bare Express p99',
        '×',
        {
          median: p.median / bareP99.median,
          min: p.min / bareP99.max,
          max: p.max / bareP99.min,
          rounds: p.rounds,
        },
        'bound 1.0',
        2,
      ),
    );
  }
  return { rows, data };
}
