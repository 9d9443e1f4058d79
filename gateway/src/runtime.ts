import path from 'node:path';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { defaultMailFrom, isLocalUrl, type GatewayConfig } from './config.js';
import { demoAccountsPresent, seedDemoData, demoSignInHelp } from './identity/seed.service.js';
import { systemClock, type Clock } from './infra/clock.js';
import type { KeyValueStore } from './infra/kv/key-value-store.js';
import { RedisKeyValueStore } from './infra/kv/redis-key-value.store.js';
import { SqlKeyValueStore } from './infra/kv/sql-key-value.store.js';
import { OutboxMailer, SmtpMailer, type Mailer } from './infra/mail/mailer.js';
import { RedisSessionStore } from './infra/sessions/redis-session.store.js';
import type { SessionStore } from './infra/sessions/session-store.js';
import { SqlSessionStore } from './infra/sessions/sql-session.store.js';
import { OutboxSmsSender, WebhookSmsSender, type SmsSender } from './infra/sms/sms-sender.js';
import { LoginThrottle } from './infra/throttle/login-throttle.js';
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
  close(): Promise<void>;
}

/** Opens a Redis connection that fails fast while down (the throttle must fail closed, not queue: S8). */
export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
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
    dataEncryptionKey: config.dataEncryptionKey,
  });
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
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
  // A deployment (PUBLIC_URL not on this machine) with demo users that still take the published password: said
  // once, loudly, at every start until they are gone (issue 39).
  if (!isLocalUrl(config.publicUrl)) {
    const open = await demoAccountsPresent(store);
    if (open.length > 0)
      logger.warn(
        { demoUsers: open },
        `SECURITY: demo users with the published demo password exist on ${config.publicUrl}: ${open.join(', ')}. Anyone can sign in as them. Disable them (npm run admin -- users disable --username NAME) or set their passwords.`,
      );
  }
  return {
    store,
    sessionStore,
    throttle,
    mailer,
    sms,
    kv,
    clock,
    redis,
    close: async () => {
      await sessionStore.close();
      await kv.close();
      await mailer.close?.();
      await sms.close?.();
      redis?.disconnect();
      await store.database.close();
    },
  };
}
