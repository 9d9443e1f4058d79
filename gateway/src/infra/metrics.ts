import { monitorEventLoopDelay, type ELDHistogram } from 'node:perf_hooks';

/** Upper bounds (seconds) of the request latency buckets: a light call takes ~1 ms, a password sign-in ~100 ms. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A gauge read when scraped: each sample's labels and value. */
export type GaugeCollector = () => { labels?: Record<string, string>; value: number }[];

interface Histogram {
  help: string;
  buckets: number[];
  series: Map<string, { counts: number[]; sum: number; count: number }>;
}

function labelText(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([k, v]) => `${k}="${v.replace(/["\\\n]/g, '_')}"`)
    .join(',');
}

// One sampler per process, started on the first scrape (tests build many apps; a sampler each would cost CPU).
let loopDelay: ELDHistogram | undefined;
function eventLoopDelay(): ELDHistogram {
  if (!loopDelay) {
    loopDelay = monitorEventLoopDelay({ resolution: 20 });
    loopDelay.enable();
  }
  return loopDelay;
}

const braces = (labels: string) => (labels ? `{${labels}}` : '');

/**
 * Prometheus metrics kept in process and rendered as text exposition format on /metrics: counters, latency
 * histograms, and gauges read at scrape time (dependencies, pool, event loop, memory). Hand-written rather than
 * prom-client: the few kinds the gateway needs cost a page of code and no dependency on the sign-in path.
 */
export class Metrics {
  private readonly counters = new Map<string, { help: string; values: Map<string, number> }>();
  private readonly histograms = new Map<string, Histogram>();
  private readonly gauges = new Map<string, { help: string; collect: GaugeCollector }>();

  constructor() {
    this.define('http_requests_total', 'HTTP requests answered, by method and status class.');
    this.define('client_error_reports_total', 'Client error reports received, by kind and outcome.');
    this.define(
      'client_error_reports_by_version_total',
      'Accepted client error reports by remote (or shell), the version this browser was given, and kind.',
    );
    this.define('sign_ins_total', 'Password sign-in attempts, by result.');
    // Health per remote version (ADR 0059): what this replica counted; the store holds every replica's.
    this.define(
      'release_page_loads_total',
      'Pages a remote renders served, by remote and the version this browser was given.',
    );
    this.define(
      'release_load_failures_total',
      'Remote-load failures the shell reported, by remote and the version this browser was given.',
    );
    this.define(
      'release_client_errors_total',
      'Client error reports of a remote (other than load failures), by remote and version.',
    );
    this.histograms.set('http_request_duration_seconds', {
      help: 'Time from a request to the end of its answer, by call (route) and status class.',
      buckets: LATENCY_BUCKETS,
      series: new Map(),
    });
    // The event loop's delay is the first sign of a saturated replica (hashing, GC, a slow synchronous read).
    this.gauge('nodejs_eventloop_lag_seconds', 'Event loop delay since the last scrape, by quantile.', () => {
      const delay = eventLoopDelay();
      const samples = [
        { labels: { quantile: '0.5' }, value: delay.percentile(50) / 1e9 },
        { labels: { quantile: '0.99' }, value: delay.percentile(99) / 1e9 },
        { labels: { quantile: '1' }, value: delay.max / 1e9 },
      ];
      delay.reset();
      return samples;
    });
    this.gauge(
      'process_memory_bytes',
      'Memory of the process, by kind (rss, heapUsed, heapTotal, external).',
      () => {
        const memory = process.memoryUsage();
        return (['rss', 'heapUsed', 'heapTotal', 'external'] as const).map((kind) => ({
          labels: { kind },
          value: memory[kind],
        }));
      },
    );
    this.gauge('process_uptime_seconds', 'Seconds since the process started.', () => [
      { value: Math.round(process.uptime()) },
    ]);
  }

  private define(name: string, help: string): void {
    this.counters.set(name, { help, values: new Map() });
  }

  /** Adds a gauge whose samples are read on every scrape. */
  gauge(name: string, help: string, collect: GaugeCollector): void {
    this.gauges.set(name, { help, collect });
  }

  /** Adds `by` to the counter with these labels. */
  inc(name: string, labels: Record<string, string>, by = 1): void {
    const counter = this.counters.get(name);
    if (!counter) throw new Error(`unknown metric ${name}`);
    const key = labelText(labels);
    counter.values.set(key, (counter.values.get(key) ?? 0) + by);
  }

  /** Records one observation (seconds) in the histogram with these labels. */
  observe(name: string, labels: Record<string, string>, value: number): void {
    const histogram = this.histograms.get(name);
    if (!histogram) throw new Error(`unknown metric ${name}`);
    const key = labelText(labels);
    let series = histogram.series.get(key);
    if (!series) {
      series = { counts: histogram.buckets.map(() => 0), sum: 0, count: 0 };
      histogram.series.set(key, series);
    }
    const index = histogram.buckets.findIndex((bound) => value <= bound);
    if (index >= 0) series.counts[index]! += 1;
    series.sum += value;
    series.count += 1;
  }

  /** The exposition text (version 0.0.4). */
  render(): string {
    const lines: string[] = [];
    for (const [name, { help, values }] of this.counters) {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
      if (values.size === 0) lines.push(`${name} 0`);
      for (const [labels, value] of values) lines.push(`${name}${braces(labels)} ${value}`);
    }
    for (const [name, { help, buckets, series }] of this.histograms) {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} histogram`);
      for (const [labels, { counts, sum, count }] of series) {
        const prefix = labels ? `${labels},` : '';
        let cumulative = 0;
        buckets.forEach((bound, i) => {
          cumulative += counts[i]!;
          lines.push(`${name}_bucket{${prefix}le="${bound}"} ${cumulative}`);
        });
        lines.push(`${name}_bucket{${prefix}le="+Inf"} ${count}`);
        lines.push(`${name}_sum${braces(labels)} ${sum}`, `${name}_count${braces(labels)} ${count}`);
      }
    }
    for (const [name, { help, collect }] of this.gauges) {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`);
      for (const { labels, value } of collect())
        lines.push(`${name}${braces(labelText(labels ?? {}))} ${Number.isFinite(value) ? value : 0}`);
    }
    return `${lines.join('\n')}\n`;
  }
}
