import type { Server } from 'node:http';
import { createApp } from './app.js';
import { createAppServer } from './http/app-server.js';
import { Drain } from './http/drain.js';
import { loadConfigOrExit } from './config.js';
import { DEFAULT_AUDIT_RETENTION_DAYS, startAuditPurge } from './identity/ops/audit-retention.js';
import { HASH_THREADS } from './identity/passwords/passwords.service.js';
import { createLogger } from './infra/logger.js';
import { createOidcMount } from './oidc/mount.js';
import { openRuntime } from './runtime.js';
import { Metrics } from './infra/metrics.js';
import { CanaryGuard } from './releases/canary-guard.js';
import { HealthCounter } from './releases/health-counter.js';
import { createReleaseService } from './releases/release-service.js';
import { ClientErrorCountRepository } from './store/client-error-count.repository.js';

const config = loadConfigOrExit();
const logger = createLogger(config.logLevel);

async function start(): Promise<void> {
  const runtime = await openRuntime(config, logger);
  const oidc = await createOidcMount(config, runtime.store, runtime.redis, logger);
  const drain = new Drain({ drainMs: config.drainMs ?? 10_000, closeTimeoutMs: 10_000 });
  // Releases that watch themselves (ADR 0059): this replica's health counts go to the store every HEALTH_FLUSH_MS,
  // and its canary guard judges running canaries every CANARY_GUARD_INTERVAL_MS (every replica runs one; a canary
  // is ended once, by whichever gets there first).
  const metrics = new Metrics();
  const healthCounts = new HealthCounter({
    repository: runtime.store.releaseHealth,
    metrics,
    logger,
    now: () => runtime.clock.now(),
    flushMs: config.healthFlushMs,
  }).start();
  const releaseService = createReleaseService(runtime.store, config.shellDist, () => runtime.clock.now());
  const canaryGuard = new CanaryGuard({
    releases: runtime.store.releases,
    health: runtime.store.releaseHealth,
    service: releaseService,
    logger: logger.child({ module: 'canary-guard' }),
    intervalMs: config.canaryGuardIntervalMs,
  }).start();
  const app = createApp({
    metrics,
    healthCounts,
    releaseService,
    config,
    store: runtime.store,
    sessionStore: runtime.sessionStore,
    throttle: runtime.throttle,
    clock: runtime.clock,
    kv: runtime.kv,
    mailer: runtime.mailer,
    sms: runtime.sms,
    logger,
    oidc,
    health: runtime.health,
    draining: drain.draining,
  });
  // Audit events older than AUDIT_RETENTION_DAYS go hourly, in small batches between requests.
  const stopAuditPurge = startAuditPurge({
    audit: runtime.store.audit,
    alsoPurge: async (before) =>
      (await new ClientErrorCountRepository(runtime.store.database.db).purgeBefore(before)) +
      (await runtime.store.releaseHealth.purgeBefore(before)),
    retentionDays: config.auditRetentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS,
    now: () => runtime.clock.now(),
    onPurged: (count) => logger.info({ count }, 'expired audit events purged'),
    onError: (error) => logger.error({ err: error }, 'audit purge failed'),
  });
  const server: Server = createAppServer(app);
  // Above the balancer's idle timeout (nginx keepalive_timeout 60 s): the balancer closes idle connections first, so
  // it never sends a request down one this replica is closing (Node's 5 s default: resets and 502s under load).
  server.keepAliveTimeout = config.keepAliveTimeoutMs ?? 75_000;
  server.headersTimeout = config.headersTimeoutMs ?? 76_000;
  server.listen(config.port, () => {
    logger.info(
      {
        port: config.port,
        publicUrl: config.publicUrl,
        // The thread pool is sized by `npm start` (threadpool.cjs) before the module loader first uses it.
        threadPool: Number(process.env.UV_THREADPOOL_SIZE) || 4,
        hashThreads: HASH_THREADS,
      },
      'gateway listening',
    );
    process.stdout.write(
      `Identity service at ${config.publicUrl}/ (sign in: ${config.publicUrl}/account/login)\n`,
    );
  });
  server.on('error', (error) => {
    process.stderr.write(`cannot listen on port ${config.port}: ${error.message}\n`);
    process.exit(1);
  });

  // Graceful shutdown (http/drain.ts): /readyz red for DRAIN_SECONDS while requests are still answered, then stop
  // accepting, let in-flight requests finish (10 s at most), then close the stores.
  const stop = (signal: string) => {
    if (drain.draining()) return;
    logger.info({ signal, drainMs: config.drainMs }, 'shutting down: draining');
    void drain.run(server).then(async (outcome) => {
      stopAuditPurge();
      oidc.close();
      // The last counts of this replica reach the store before it closes.
      await canaryGuard.stop();
      await healthCounts.close();
      runtime
        .close()
        .catch((error: unknown) => logger.error({ err: error }, 'close failed'))
        .finally(() => process.exit(outcome === 'closed' ? 0 : 1));
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

start().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`gateway failed to start: ${message}\n`);
  process.exit(1);
});
