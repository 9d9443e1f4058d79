#!/usr/bin/env node
// `npm run bench`: builds, starts the gateway on a free loopback port with a temporary DATA_DIR and the demo data,
// measures every figure of the product targets as the median over rounds with its spread, prints one table and writes
// bench/results/<YYYY-MM-DD>.json, git-ignored (a run's raw data is the machine's, not the repository's: the latest
// figures go into README.md's table). See README.md for what each figure and bound means.
//
// Options: --no-build (use the dist/ folders as they are), --quick (1 round, short runs: a smoke test of the bench
// itself, results go to <date>-quick.json), --rounds=N (default 3), --only=1,2,3,4,5,6,7,8,9 (sections),
// --users=N (bench users for sign-in, default 50: see README), --cold-build-rounds=N (default 1: a cold build takes minutes),
// --soak-minutes=N (section 9, default 10; --quick makes it 2).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildRows, measureColdBuild, measureRemoteRebuild, turboBuild } from './lib/build.section.mjs';
import { runCaptcha } from './lib/captcha.section.mjs';
import { runCustomers } from './lib/customers.section.mjs';
import { GATEWAY_DIST, REPO, startGateway } from './lib/gateway.mjs';
import { runLight } from './lib/light.section.mjs';
import { runLighthouseSection } from './lib/lighthouse.section.mjs';
import { runOidc } from './lib/oidc.section.mjs';
import { runPages } from './lib/pages.section.mjs';
import { runSignIn } from './lib/signin.section.mjs';
import { runSoak } from './lib/soak.section.mjs';
import { formatTable, textRow } from './lib/table.mjs';

const { values: opts } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    only: { type: 'string' },
    users: { type: 'string', default: '50' },
    'cold-build-rounds': { type: 'string' },
    'log-level': { type: 'string', default: 'info' },
    'soak-minutes': { type: 'string' },
  },
});

const started = Date.now();
const quick = opts.quick;
const rounds = Number(opts.rounds ?? (quick ? 1 : 3));
const only = new Set((opts.only ?? '1,2,3,4,5,6,7,8,9').split(',').map((s) => s.trim()));
const soakMinutes = Number(opts['soak-minutes'] ?? (quick ? 2 : 10));
const coldBuildRounds = Number(opts['cold-build-rounds'] ?? 1);
const log = (m) => console.log(`[bench +${((Date.now() - started) / 1000).toFixed(0)}s] ${m}`);

/** Every section's rows, in order, and the raw data behind them. */
const rows = [];
const data = {};

async function section(id, name, fn) {
  if (!only.has(id)) return;
  log(`section ${id}: ${name}`);
  try {
    const out = await fn();
    rows.push(...out.rows);
    data[name] = out.data;
  } catch (e) {
    const reason = e instanceof Error ? e.message.split('\n')[0] : String(e);
    log(`section ${id} failed: ${e instanceof Error ? e.stack : e}`);
    rows.push(textRow(id, name, 'n/a', reason));
    data[name] = { error: e instanceof Error ? e.stack : String(e) };
  }
}

// Build first. With section 5 selected, the cold build IS the build (and is timed); otherwise a normal, cached
// turbo build. --no-build trusts the dist folders.
let cold;
if (!opts['no-build']) {
  if (only.has('5')) {
    log(`cold build (${coldBuildRounds} round(s))`);
    try {
      cold = await measureColdBuild(coldBuildRounds, log);
    } catch (e) {
      cold = e instanceof Error ? e : new Error(String(e));
      log(`cold build failed: ${cold.message}`);
    }
  } else {
    log('turbo run build');
    await turboBuild();
  }
}
if (!existsSync(path.join(GATEWAY_DIST, 'server.js'))) {
  console.error('gateway/dist/server.js is missing: build first (or drop --no-build).');
  process.exit(1);
}

log('starting the gateway');
const gw = await startGateway({ logLevel: opts['log-level'] });
log(`gateway on ${gw.base} (DATA_DIR ${gw.dataDir})`);
const ctx = { base: gw.base, gw, rounds, quick, users: Number(opts.users), log };
let rebuild;
try {
  await section('1', 'signIn', () => runSignIn(ctx));
  await section('2', 'lightEndpoints', () => runLight(ctx));
  await section('6', 'oidc', () => runOidc(ctx));
  await section('7', 'customers', () => runCustomers(ctx));
  await section('8', 'captcha', () => runCaptcha(ctx));
  await section('3', 'pageWeight', () => runPages(ctx));
  await section('4', 'lighthouse', () => runLighthouseSection(ctx));
  // After the browser sections: its own cluster (PostgreSQL, Redis, two replicas, nginx) loads both cores throughout.
  await section('9', 'soak', () => runSoak({ ...ctx, soakMinutes }));
  if (only.has('5')) {
    log(`section 5: rebuild + publish one remote`);
    try {
      rebuild = await measureRemoteRebuild(gw, rounds, log);
    } catch (e) {
      rebuild = e instanceof Error ? e : new Error(String(e));
      log(`remote rebuild failed: ${rebuild.stack}`);
    }
    rows.push(...buildRows(cold, rebuild));
    data.build = {
      cold: cold instanceof Error ? { error: cold.message } : cold,
      rebuild: rebuild instanceof Error ? { error: rebuild.message } : rebuild,
    };
  }
} finally {
  await gw.stop();
}

// Keep the table in section order (OIDC runs before the browser sections but reads better last).
rows.sort((a, b) => Number(a.section) - Number(b.section));
const table = formatTable(rows);
console.log(`\n${table}\n`);

const gitCommit = (() => {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
})();
const day = new Date().toISOString().slice(0, 10);
const resultsDir = path.join(REPO, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
// A run of some sections only (--only) writes beside the day's full run instead of over it.
const partial = opts.only === undefined ? '' : `-only-${[...only].join('-')}`;
const file = path.join(resultsDir, `${day}${quick ? '-quick' : ''}${partial}.json`);
const result = {
  date: new Date().toISOString(),
  gitCommit,
  machine: {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverageAtEnd: os.loadavg(),
  },
  settings: {
    rounds,
    quick,
    sections: [...only],
    users: ctx.users,
    coldBuildRounds,
    gatewayLogLevel: opts['log-level'],
    build: !opts['no-build'],
  },
  durationSeconds: Math.round((Date.now() - started) / 1000),
  rows,
  data,
  table,
};
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
log(`wrote ${file} (${result.durationSeconds} s in all; git-ignored)`);
