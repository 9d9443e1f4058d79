import path from 'node:path';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { defaultMailFrom, type GatewayConfig } from './config.js';
import { demoAccountsPresent, seedDemoData, demoSignInHelp } from './identity/demo/seed.service.js';
import { systemClock, type Clock } from './infra/clock.js';
import { DependencyHealth } from './infra/dependency-health.js';
import type { KeyValueStore } from './infra/kv/key-value-store.js';
import { RedisKeyValueStore } from './infra/kv/redis-key-value.store.js';
import { SqlKeyValueStore } from './infra/kv/sql-key-value.store.js';
import { OutboxMailer, SmtpMailer, type Mailer } from './infra/mail/mailer.js';
import { RedisSessionStore } from './infra/sessions/redis-session.store.js';
import type { SessionStore } from './infra/sessions/session-store.js';
import { SqlSessionStore } from './infra/sessions/sql-session.store.js';
import { OutboxSmsSender, WebhookSmsSender, type SmsSender } from './infra/sms/sms-sender.js';
import { LoginThrottle } from './infra/throttle/login-throttle.js';
import { checkKeyFingerprint, keyFingerprint } from './store/key-fingerprint.js';
import { openStore, type Store } from './store/store.js';

/** Everything the server opens from its configuration, with one `close`. */
export interface Runtime {
  store: Store;
  sessionStore: SessionStore;
  throttle: LoginThrottle;
  /** SMTP (SMTP_URL) or the dev outbox, logged at info. */
  mailer: Mailer;
  /** The SMS webhook (SMS_WEBHOOK_URL) or the dev outbox, logged at info. */
  sms: SmsSender;
  /** Short-lived flow state: Redis when REDIS_URL is set, else the `kv` table of the store. */
  kv: KeyValueStore;
  clock: Clock;
  redis: Redis | undefined;
  /** Whether the database and Redis answer (probed every second; one log line per change). */
  health: DependencyHealth;
  close(): Promise<void>;
}

/** Opens a Redis connection that fails fast while down (the throttle must fail closed, not queue: S8). */
export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
  // Connection errors are expected while Redis restarts: ioredis reconnects by itself (within 2 s of its return),
  // DependencyHealth reports the outage once; an `error` event without a listener would end the process.
  redis.on('error', () => undefined);
  await redis.connect();
  return redis;
}

/**
 * Opens the store (migrated), Redis when configured, the session store, throttle, mailer, SMS sender and key-value
 * store; seeds demo data.
 */
export async function openRuntime(config: GatewayConfig, logger: Logger): Promise<Runtime> {
  const clock = systemClock;
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'identity.db'),
    // Disk flushes of the WAL checkpoints happen beside the event loop, not inside a request's commit.
    checkpointInBackground: true,
    // And the commits' own flushes too, several commits to one (ADR 0067).
    groupCommit: true,
    dataEncryptionKey: config.dataEncryptionKey,
  });
  try {
    if (
      (await checkKeyFingerprint(
        store.database.db,
        keyFingerprint(config.secretKey, config.dataEncryptionKey),
      )) === 'stored'
    )
      logger.info('key fingerprint stored: later starts against this database must use the same keys');
  } catch (error) {
    await store.database.close();
    throw error;
  }
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  const health = new DependencyHealth({
    probes: {
      database: () => store.database.ping(),
      ...(redis ? { redis: async () => (await redis.ping()) === 'PONG' } : {}),
    },
    logger,
  }).start();
  // A broken pool connection is the first sign of a PostgreSQL restart: probe now rather than at the next tick.
  store.database.pool?.onConnectionError(() => health.suspect());
  redis?.on('error', () => health.suspect());
  const sessionStore: SessionStore = redis
    ? new RedisSessionStore(redis)
    : new SqlSessionStore(store.database.db, Date.now, store.database.committedReader);
  const throttle = new LoginThrottle(redis ? { kind: 'redis', client: redis } : { kind: 'memory' });
  const mailer: Mailer = config.smtpUrl
    ? new SmtpMailer(config.smtpUrl, config.mailFrom ?? defaultMailFrom(config.publicUrl))
    : new OutboxMailer(store.outbox, logger);
  const sms: SmsSender = config.smsWebhookUrl
    ? new WebhookSmsSender({ url: config.smsWebhookUrl, token: config.smsWebhookToken })
    : new OutboxSmsSender(store.outbox, logger);
  const kv: KeyValueStore = redis
    ? new RedisKeyValueStore(redis)
    : new SqlKeyValueStore(store.database.db, store.database.dialect);
  if (!config.smtpUrl || !config.smsWebhookUrl)
    logger.info(
      { mail: config.smtpUrl ? 'smtp' : 'outbox', sms: config.smsWebhookUrl ? 'webhook' : 'outbox' },
      'messages without a provider go to the dev outbox and this log',
    );
  if (config.seedDemoData && (await seedDemoData(store))) {
    logger.info('demo data seeded');
    for (const line of demoSignInHelp(config.publicUrl)) process.stdout.write(`${line}\n`);
  }
  // Any start with demo users that still take the published password says so once, loudly, at every start until
  // they are gone, whatever PUBLIC_URL is: a loopback address is also what a deployment behind a local TLS proxy
  // has (issues 39 and 48, ADR 0044).
  const open = await demoAccountsPresent(store);
  if (open.length > 0)
    logger.warn(
      { demoUsers: open },
      `SECURITY: demo users with the published demo password exist on ${config.publicUrl}: ${open.join(', ')}. Anyone can sign in as them. Disable them (npm run admin -- users disable --username NAME) or set their passwords.`,
    );
  return {
    store,
    sessionStore,
    throttle,
    mailer,
    sms,
    kv,
    clock,
    redis,
    health,
    close: async () => {
      health.stop();
      await sessionStore.close();
      await kv.close();
      await mailer.close?.();
      await sms.close?.();
      redis?.disconnect();
      await store.database.close();
    },
  };
}
