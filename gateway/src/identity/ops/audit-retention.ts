import type { AuditRepository } from '../../store/audit.repository.js';

/** Default retention of audit events (AUDIT_RETENTION_DAYS). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 180;
const DAY_MS = 24 * 60 * 60 * 1000;

/** What {@link purgeExpiredAuditEvents} and {@link startAuditPurge} need. */
export interface AuditRetentionDeps {
  audit: Pick<AuditRepository, 'purgeBatch' | 'retentionDays'>;
  /** Other time-stamped records kept as long as the audit trail (the client-error counts): their purge. */
  alsoPurge?: ((before: number) => Promise<unknown>) | undefined;
  /** AUDIT_RETENTION_DAYS: the retention until one is set in the console (stored, read at every run). */
  retentionDays: number;
  now: () => number;
}

/**
 * Deletes every audit event older than the retention, in small batches with a turn of the event loop between them
 * so requests are served in between; answers how many went.
 */
export async function purgeExpiredAuditEvents(deps: AuditRetentionDeps): Promise<number> {
  // The console's setting, read from the shared store at each run: every replica purges by the same retention.
  const days = (await deps.audit.retentionDays()) ?? deps.retentionDays;
  const before = deps.now() - days * DAY_MS;
  await deps.alsoPurge?.(before);
  let total = 0;
  for (;;) {
    const deleted = await deps.audit.purgeBatch(before);
    total += deleted;
    if (deleted === 0) return total;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/**
 * Runs the purge once soon after start and then every `intervalMs` (default hourly), in the background: a timer
 * that does not keep the process alive, one run at a time, failures reported and retried at the next tick.
 */
export function startAuditPurge(
  deps: AuditRetentionDeps & {
    intervalMs?: number;
    onPurged?: (count: number) => void;
    onError: (error: unknown) => void;
  },
): () => void {
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    purgeExpiredAuditEvents(deps)
      .then((count) => {
        if (count > 0) deps.onPurged?.(count);
      })
      .catch(deps.onError)
      .finally(() => {
        running = false;
      });
  };
  const first = setTimeout(run, 10_000);
  const timer = setInterval(run, deps.intervalMs ?? 60 * 60 * 1000);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
