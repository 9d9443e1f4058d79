// Section 9: the soak (issue 54) — two replicas behind nginx on PostgreSQL and Redis (the scale suite's set-up),
// sign-ins at 70 % of the saturated rate through the balancer with OIDC round trips and page loads mixed in, for
// `--soak-minutes` (default 10). The run itself is lib/soak-run.mjs in a process of its own (it loads the scale
// suite's TypeScript helpers through tsx); this file starts it, bounds it in time and turns its figures into rows.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { REPO } from './gateway.mjs';
import { perMinute, soakGoals } from './soak-figures.mjs';
import { row, textRow } from './table.mjs';

const S = '9';
const RUNNER = fileURLToPath(new URL('./soak-run.mjs', import.meta.url));
const MIB = 1024 * 1024;
const one = (v) => ({ median: v, min: v, max: v, rounds: 1 });

/** Runs soak-run.mjs and returns its JSON line. */
function runSoakProcess(minutes, users, log) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', RUNNER, String(minutes), String(users)], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    // Set-up (PostgreSQL, Redis, two replicas, users, saturation) takes a few minutes on 2 cores; then the soak.
    const timer = setTimeout(() => child.kill('SIGTERM'), (minutes * 60 + 600) * 1000);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => {
      err += d;
      for (const line of String(d).split('\n').filter(Boolean)) log(line);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const line = out.trim().split('\n').pop();
      if (code === 0 && line) return resolve(JSON.parse(line));
      reject(new Error(`soak-run exited ${code ?? signal}: ${err.split('\n').slice(-8).join('\n')}`));
    });
  });
}

/**
 * @param {{soakMinutes?: number, users: number, log: (m: string) => void}} ctx
 */
export async function runSoak(ctx) {
  const minutes = ctx.soakMinutes ?? 10;
  const raw = await runSoakProcess(minutes, Math.min(ctx.users, 50), ctx.log);
  if (raw.skipped) return { rows: [textRow(S, 'soak', 'n/a', raw.skipped)], data: raw };
  const byMinute = perMinute(raw.samples, minutes);
  const goals = soakGoals(byMinute, raw.readings);
  const rows = [
    row(
      S,
      'soak: saturated sign-ins/s through nginx, 2 replicas',
      '/s',
      one(raw.saturated),
      raw.saturation.map((s) => `${s.concurrency}: ${s.rate.toFixed(1)}`).join(', '),
    ),
    row(
      S,
      '    arrivals/s (sign-ins at 70 %, + 1 OIDC and 1 page per 10)',
      '/s',
      one(raw.arrivalRate),
      `${raw.users} users, ${minutes} min`,
    ),
    row(
      S,
      '    errors (all kinds)',
      '',
      one(goals.errors.value),
      `goal 0: ${goals.errors.met ? 'met' : 'not met'}${raw.errorKinds.length ? `; ${raw.errorKinds.map(([w, n]) => `${n}× ${w}`).join('; ')}` : ''}`,
      0,
    ),
    row(
      S,
      '    sign-in p99, last minute ÷ second minute − 1',
      '%',
      one(goals.p99Drift.value * 100),
      `goal ≤ 10 %: ${goals.p99Drift.met ? 'met' : 'not met'}`,
    ),
    row(
      S,
      '    RSS growth after the first minute (worst replica)',
      '%',
      one(Math.max(...goals.rssGrowth.value.map((g) => g.growth)) * 100),
      `goal < 10 %: ${goals.rssGrowth.met ? 'met' : 'not met'}; ${goals.rssGrowth.value.map((g) => `${g.name} ${(g.growth * 100).toFixed(1)} %`).join(', ')}`,
    ),
  ];
  for (const m of byMinute) {
    const r = raw.readings.find((x) => x.minute === m.minute);
    const replicas = (r?.replicas ?? [])
      .map(
        (x) =>
          `${x.name} ${(x.rssBytes / MIB).toFixed(0)} MiB, lag p99 ${x.lagP99Ms.toFixed(0)}/max ${x.lagMaxMs.toFixed(0)} ms`,
      )
      .join('; ');
    const stores = `PG ${r?.postgresConnections ?? '?'} conns, Redis ${r?.redisUsedBytes === undefined ? '?' : (r.redisUsedBytes / MIB).toFixed(1)} MiB`;
    rows.push(
      row(
        S,
        `    minute ${m.minute}: sign-in p99 (p50)`,
        'ms',
        one(m.signIn.p99),
        `p50 ${m.signIn.p50.toFixed(0)} ms; OIDC p99 ${m.oidc.p99.toFixed(0)}, page p99 ${m.page.p99.toFixed(0)} ms; ${m.signIn.errors + m.oidc.errors + m.page.errors} errors; ${replicas}; ${stores}`,
      ),
    );
  }
  return {
    rows,
    data: { ...raw, samples: undefined, sampleCount: raw.samples.length, byMinute, goals },
  };
}
