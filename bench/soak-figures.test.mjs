// lib/soak-figures.mjs: section 9's per-minute figures and goals, on known samples.
import { describe, expect, it } from 'vitest';
import { metricValue, perMinute, soakGoals } from './lib/soak-figures.mjs';

const at = (minute, second) => (minute * 60 + second) * 1000;

describe('soak figures (section 9)', () => {
  const samples = [
    ...Array.from({ length: 100 }, (_, i) => ({
      kind: 'signIn',
      scheduledMs: at(0, i % 60),
      ok: true,
      latencyMs: i + 1,
    })),
    ...Array.from({ length: 100 }, (_, i) => ({
      kind: 'signIn',
      scheduledMs: at(1, i % 60),
      ok: true,
      latencyMs: 10,
    })),
    ...Array.from({ length: 100 }, (_, i) => ({
      kind: 'signIn',
      scheduledMs: at(2, i % 60),
      ok: true,
      latencyMs: 10.5,
    })),
    { kind: 'oidc', scheduledMs: at(2, 1), ok: false, what: 'Login answered 503' },
    { kind: 'page', scheduledMs: at(1, 1), ok: true, latencyMs: 40 },
  ];
  const minutes = perMinute(samples, 3);

  it('puts each arrival in the minute it was scheduled in, with its kind’s p50 and p99 over answered ones', () => {
    expect(minutes.map((m) => m.signIn.answers)).toEqual([100, 100, 100]);
    expect(minutes[0].signIn.p50).toBe(50);
    expect(minutes[0].signIn.p99).toBe(99);
    expect(minutes[1].page).toMatchObject({ answers: 1, errors: 0, p99: 40 });
    expect(minutes[2].oidc).toMatchObject({ answers: 1, errors: 1 });
    expect(minutes[2].oidc.p99).toBeNaN();
  });

  it('judges the goals: errors, last minute p99 against the second, RSS after the first minute', () => {
    const readings = [1, 2, 3].map((minute) => ({
      minute,
      replicas: [
        { name: 'replica-1', rssBytes: 100 + minute, lagP99Ms: 1, lagMaxMs: 2 },
        { name: 'replica-2', rssBytes: minute === 3 ? 120 : 100, lagP99Ms: 1, lagMaxMs: 2 },
      ],
    }));
    const goals = soakGoals(minutes, readings);
    expect(goals.errors).toEqual({ value: 1, met: false });
    expect(goals.p99Drift.value).toBeCloseTo(0.05);
    expect(goals.p99Drift.met).toBe(true);
    expect(goals.rssGrowth.value.map((g) => Math.round(g.growth * 1000) / 1000)).toEqual([0.02, 0.2]);
    expect(goals.rssGrowth.met).toBe(false);
  });

  it('reads one sample of a Prometheus exposition by name and labels', () => {
    const text = [
      '# HELP process_memory_bytes Memory',
      'process_memory_bytes{kind="heapUsed"} 10',
      'process_memory_bytes{kind="rss"} 123456',
      'nodejs_eventloop_lag_seconds{quantile="0.99"} 0.004',
      'nodejs_eventloop_lag_seconds_total 9',
    ].join('\n');
    expect(metricValue(text, 'process_memory_bytes', { kind: 'rss' })).toBe(123456);
    expect(metricValue(text, 'nodejs_eventloop_lag_seconds', { quantile: '0.99' })).toBe(0.004);
    expect(metricValue(text, 'nodejs_eventloop_lag_seconds', { quantile: '1' })).toBeUndefined();
  });
});
