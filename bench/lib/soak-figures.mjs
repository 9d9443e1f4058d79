// The soak's figures per minute (section 9) from its raw samples, and its three goals (issue 54): no errors, the
// last minute's sign-in p99 within 10 % of the second minute's, every replica's RSS growth after the first minute
// under 10 %. Plain functions, so `soak-figures.test.mjs` checks them on known samples.
import { percentile } from './stats.mjs';

/**
 * @typedef {{kind: 'signIn'|'oidc'|'page', scheduledMs: number, latencyMs?: number, ok: boolean, what?: string}} Sample
 * @typedef {{minute: number, replicas: {name: string, rssBytes: number, lagP99Ms: number, lagMaxMs: number}[],
 *   postgresConnections?: number, redisUsedBytes?: number}} Reading
 */

/**
 * Per minute (by each arrival's scheduled time): answers, errors and p50/p99 of each kind.
 * @param {Sample[]} samples
 * @param {number} minutes
 */
export function perMinute(samples, minutes) {
  const out = [];
  for (let m = 0; m < minutes; m += 1) {
    const inMinute = samples.filter((s) => Math.floor(s.scheduledMs / 60_000) === m);
    const row = { minute: m + 1 };
    for (const kind of ['signIn', 'oidc', 'page']) {
      const of = inMinute.filter((s) => s.kind === kind);
      const ok = of.filter((s) => s.ok).map((s) => /** @type {number} */ (s.latencyMs));
      row[kind] = {
        answers: of.length,
        errors: of.length - ok.length,
        p50: percentile(ok, 50),
        p99: percentile(ok, 99),
      };
    }
    out.push(row);
  }
  return out;
}

/**
 * The soak's goals, each with the figures it was judged on.
 * @param {ReturnType<typeof perMinute>} minutes
 * @param {Reading[]} readings one per minute, in order
 */
export function soakGoals(minutes, readings) {
  const errors = minutes.reduce((n, m) => n + m.signIn.errors + m.oidc.errors + m.page.errors, 0);
  const second = minutes[1]?.signIn.p99;
  const last = minutes[minutes.length - 1]?.signIn.p99;
  const p99Drift = second && last ? last / second - 1 : NaN;
  const growth = (readings[0]?.replicas ?? []).map((first) => {
    const end = readings[readings.length - 1].replicas.find((r) => r.name === first.name);
    return { name: first.name, growth: end ? end.rssBytes / first.rssBytes - 1 : NaN };
  });
  return {
    errors: { value: errors, met: errors === 0 },
    p99Drift: { value: p99Drift, met: Number.isFinite(p99Drift) && p99Drift <= 0.1 },
    rssGrowth: {
      value: growth,
      met: growth.length > 0 && growth.every((g) => Number.isFinite(g.growth) && g.growth < 0.1),
    },
  };
}

/** The value of one sample of a Prometheus text exposition (`name{labels} value`), or undefined. */
export function metricValue(text, name, labels = {}) {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = line.match(/^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})?\s+(\S+)/);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}
