// Section 7: customer selection (issue 16, ADR 0009) for a user with 10,000 customers. The customers and the
// memberships are onboarded with the admin CLI's `customers import` (one CSV, one transaction), the user signs in and
// waits at /account/select, and GET /api/Account/Customers is timed for the lists the page asks for: the first page,
// a search, the last page and a search that finds nothing. Goal: p95 ≤ 50 ms.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { call, newSession } from './account-client.mjs';
import { runGatewayCli } from './gateway.mjs';
import { runLoad } from './load.mjs';
import { summarize } from './stats.mjs';
import { row, textRow } from './table.mjs';
import { BENCH_PASSWORD } from './users.mjs';

const S = '7';
const CUSTOMERS = 10_000;
const USERNAME = 'bench-customers';
const GOAL_P95_MS = 50;
const CITIES = ['Zürich', 'Berlin', 'Lyon', 'Madrid', 'Leeds', 'Québec', 'Porto', 'Graz', 'Turku', 'Cork'];

/** The onboarding file: 10,000 customers of partner `demo`, each with the bench user as a manager. */
function customersCsv() {
  const lines = ['id,name,partner,username,roles'];
  for (let i = 1; i <= CUSTOMERS; i += 1) {
    const n = String(i).padStart(5, '0');
    lines.push(`bench-${n},"Customer ${n} ${CITIES[i % CITIES.length]}, Ltd",demo,${USERNAME},MANAGER`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * @param {{base: string, gw: {env: Record<string,string>, dataDir: string}, rounds: number, quick: boolean,
 *   log: (m: string) => void}} ctx
 */
export async function runCustomers(ctx) {
  const rows = [];
  const data = { customers: CUSTOMERS, queries: {} };
  await runGatewayCli(ctx.gw, 'admin', [
    'users',
    'add',
    '--username',
    USERNAME,
    '--email',
    `${USERNAME}@bench.test`,
    '--password',
    BENCH_PASSWORD,
    '--roles',
    'EMPLOYEE',
  ]);
  const file = path.join(ctx.gw.dataDir, 'bench-customers.csv');
  writeFileSync(file, customersCsv());
  const t0 = performance.now();
  const imported = await runGatewayCli(ctx.gw, 'admin', ['customers', 'import', file]);
  data.importSeconds = (performance.now() - t0) / 1000;
  data.importOutput = imported.stdout.trim().split('\n').at(-1);
  ctx.log(`${data.importOutput} in ${data.importSeconds.toFixed(1)} s`);

  // Sign in: the sign-in waits at the customer step, whose calls answer this browser.
  const session = await newSession(ctx.base);
  const login = await call(ctx.base, session.jar, 'POST', '/api/Account/Login', {
    username: USERNAME,
    password: BENCH_PASSWORD,
    rememberMe: false,
    returnUrl: '/account/',
  });
  if (login.status !== 209 || !String(login.json?.redirect).startsWith('/account/select'))
    throw new Error(
      `the bench user's sign-in did not stop at /account/select: ${login.status} ${login.text}`,
    );
  await call(ctx.base, session.jar, 'POST', '/api/Account/Exchange', { state: login.json.state });

  const settings = { connections: 1, duration: ctx.quick ? 2 : 4 };
  data.settings = settings;
  const queries = [
    { name: 'first page (no filter)', query: '' },
    { name: 'search "zurich" (1,000 match)', query: '?filter=zurich' },
    { name: 'search "customer 0999" (10 match)', query: `?filter=${encodeURIComponent('customer 0999')}` },
    { name: 'last page (2,000 of 5)', query: `?page=${CUSTOMERS / 5}` },
    { name: 'search that finds nothing', query: '?filter=nowhere' },
  ];
  const headers = {
    cookie: session.jar.header(),
    accept: 'application/json',
    'x-requested-with': 'XMLHttpRequest',
  };
  for (const q of queries) {
    const probe = await call(ctx.base, session.jar, 'GET', `/api/Account/Customers${q.query}`);
    if (probe.status !== 200 || probe.json?.total === undefined)
      throw new Error(`Customers${q.query} answered ${probe.status}: ${probe.text.slice(0, 200)}`);
    q.total = probe.json.total;
  }
  const results = Object.fromEntries(queries.map((q) => [q.name, []]));
  // Interleaved rounds, so a noisy moment hurts every query alike.
  for (let round = 0; round < ctx.rounds; round += 1) {
    for (const q of queries) {
      results[q.name].push(
        await runLoad({
          kind: 'fixed',
          url: ctx.base,
          ...settings,
          request: { method: 'GET', path: `/api/Account/Customers${q.query}`, headers },
        }),
      );
    }
  }
  rows.push(
    textRow(
      S,
      `Customers search, user with ${CUSTOMERS.toLocaleString('en-GB')} customers (${settings.connections} connection)`,
      '',
      `imported with customers import in ${data.importSeconds.toFixed(1)} s`,
    ),
  );
  for (const q of queries) {
    const runs = results[q.name];
    const non200 = runs.reduce((n, r) => n + (r.total - (r.statuses[200] ?? 0)), 0);
    const p95 = summarize(runs.map((r) => r.p95));
    data.queries[q.name] = { query: q.query, total: q.total, p95, statuses: runs.map((r) => r.statuses) };
    const note = [`goal ≤ ${GOAL_P95_MS} ms`, `total ${q.total}`, non200 ? `${non200} non-200` : '']
      .filter(Boolean)
      .join('; ');
    rows.push(row(S, `    ${q.name} p95`, 'ms', p95, note));
  }
  return { rows, data };
}
