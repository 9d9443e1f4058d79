/** Prometheus counters kept in process and rendered as text exposition format on /metrics. */
export class Metrics {
  private readonly counters = new Map<string, { help: string; values: Map<string, number> }>();

  constructor() {
    this.define('http_requests_total', 'HTTP requests answered, by method and status class.');
    this.define('client_error_reports_total', 'Client error reports received, by kind and outcome.');
    this.define(
      'client_error_reports_by_version_total',
      'Accepted client error reports by remote (or shell), the version this browser was given, and kind.',
    );
    this.define('sign_ins_total', 'Password sign-in attempts, by result.');
  }

  private define(name: string, help: string): void {
    this.counters.set(name, { help, values: new Map() });
  }

  /** Adds `by` to the counter with these labels. */
  inc(name: string, labels: Record<string, string>, by = 1): void {
    const counter = this.counters.get(name);
    if (!counter) throw new Error(`unknown metric ${name}`);
    const key = Object.entries(labels)
      .map(([k, v]) => `${k}="${v.replace(/["\\\n]/g, '_')}"`)
      .join(',');
    counter.values.set(key, (counter.values.get(key) ?? 0) + by);
  }

  /** The exposition text (version 0.0.4). */
  render(): string {
    const lines: string[] = [];
    for (const [name, { help, values }] of this.counters) {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
      if (values.size === 0) lines.push(`${name} 0`);
      for (const [labels, value] of values) lines.push(`${name}${labels ? `{${labels}}` : ''} ${value}`);
    }
    lines.push(
      `# HELP process_uptime_seconds Seconds since the process started.`,
      `# TYPE process_uptime_seconds gauge`,
    );
    lines.push(`process_uptime_seconds ${Math.round(process.uptime())}`);
    return `${lines.join('\n')}\n`;
  }
}
