import type { Server } from 'node:http';
import { createApp } from './app.js';
import { createAppServer } from './http/app-server.js';
import { loadConfigOrExit } from './config.js';
import { DEFAULT_AUDIT_RETENTION_DAYS, startAuditPurge } from './identity/ops/audit-retention.js';
import { HASH_THREADS } from './identity/passwords.service.js';
import { createLogger } from './infra/logger.js';
import { createOidcMount } from './oidc.mount.js';
import { openRuntime } from './runtime.js';
import { ClientErrorCountRepository } from './store/client-error-count.repository.js';

const config = loadConfigOrExit();
const logger = createLogger(config.logLevel);

async function start(): Promise<void> {
  const runtime = await openRuntime(config, logger);
  const oidc = await createOidcMount(config, runtime.store, runtime.redis, logger);
  const app = createApp({
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
  });
  // Audit events older than AUDIT_RETENTION_DAYS go hourly, in small batches between requests.
  const stopAuditPurge = startAuditPurge({
    audit: runtime.store.audit,
    alsoPurge: (before) => new ClientErrorCountRepository(runtime.store.database.db).purgeBefore(before),
    retentionDays: config.auditRetentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS,
    now: () => runtime.clock.now(),
    onPurged: (count) => logger.info({ count }, 'expired audit events purged'),
    onError: (error) => logger.error({ err: error }, 'audit purge failed'),
  });
  const server: Server = createAppServer(app).listen(config.port, () => {
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

  // Graceful shutdown: stop accepting, let in-flight requests finish (10 s at most), then close the stores.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close(() => {
      stopAuditPurge();
      oidc.close();
      runtime
        .close()
        .catch((error: unknown) => logger.error({ err: error }, 'close failed'))
        .finally(() => process.exit(0));
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

start().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`gateway failed to start: ${message}\n`);
  process.exit(1);
});
