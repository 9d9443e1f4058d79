/**
 * A gateway running in-process for tests: `createApp` over the storage of `backends.ts` (SQLite in a temporary
 * folder, or PostgreSQL + Redis), a fake shell build, and optionally the real OIDC provider on a loopback port.
 * The fake browsers live in `browser.ts`; both are re-exported here so suites import one module.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import { pino } from 'pino';
import type { Redis } from 'ioredis';
import { createApp, type AppDeps } from '../app.js';
import type { GatewayConfig } from '../config.js';
import { hashPassword } from '../identity/passwords/passwords.service.js';
import { ManualClock } from '../infra/clock.js';
import type { KeyValueStore } from '../infra/kv/key-value-store.js';
import { RedisKeyValueStore } from '../infra/kv/redis-key-value.store.js';
import { SqlKeyValueStore } from '../infra/kv/sql-key-value.store.js';
import { Metrics } from '../infra/metrics.js';
import { MemorySessionStore } from '../infra/sessions/memory-session.store.js';
import { RedisSessionStore } from '../infra/sessions/redis-session.store.js';
import type { SessionStore } from '../infra/sessions/session-store.js';
import { SqlSessionStore } from '../infra/sessions/sql-session.store.js';
import {
  DEFAULT_THROTTLE_LIMITS,
  LoginThrottle,
  type ThrottleLimits,
} from '../infra/throttle/login-throttle.js';
import { createOidcMount } from '../oidc/mount.js';
import { HealthCounter } from '../releases/health-counter.js';
import { ReleaseRegistry } from '../releases/release-registry.js';
import type { Store } from '../store/store.js';
import type { NewUser, User } from '../store/user.repository.js';
import { openTestBackends, type Backend } from './backends.js';
import { TEST_PASSWORD } from './browser.js';
import { listenOnLoopback, type LoopbackServer } from './loopback-server.js';

export { BACKENDS, openTestBackends, type Backend } from './backends.js';
export { browser, sessionCookieOf, TEST_PASSWORD, TestBrowser } from './browser.js';
export { listenOnLoopback, type LoopbackServer } from './loopback-server.js';

/** A gateway running in-process on a temp DATA_DIR with a fake shell build. */
export interface TestGateway {
  app: Express;
  config: GatewayConfig;
  store: Store;
  clock: ManualClock;
  sessionStore: SessionStore;
  /** The short-lived flow state the app uses (Redis on postgres-redis, else the store's `kv` table). */
  kv: KeyValueStore;
  metrics: Metrics;
  /** The app's view of the release registry in the store (polled every 100 ms; LISTEN on PostgreSQL). */
  releases: ReleaseRegistry;
  /** The app's health counts per remote version (ADR 0059): buffered until a test calls `flush()`. */
  healthCounts: HealthCounter;
  dataDir: string;
  shellDist: string;
  /** With `oidc: true`: the origin the gateway listens on (also its issuer, PUBLIC_URL). */
  url: string | undefined;
  /** The Redis client of the postgres-redis backend (the OIDC artefacts live there with `oidc: true`). */
  redis: Redis | undefined;
  addUser(input?: Partial<NewUser> & { password?: string }): Promise<User>;
  /** Another app over the very same store, sessions, clock and config, with some dependencies replaced. */
  appWith(overrides: Partial<AppDeps>): Express;
  close(): Promise<void>;
}

/** Options of {@link startTestGateway}. */
export interface TestGatewayOptions {
  backend?: Backend;
  throttleLimits?: Partial<ThrottleLimits>;
  /** Use the SQL session store instead of memory (sqlite backend). */
  sqlSessions?: boolean;
  /** Use the system clock (timing tests) instead of a manual one. */
  realClock?: boolean;
  overrides?: Partial<AppDeps>;
  config?: Partial<GatewayConfig>;
  /**
   * Mount the real OIDC provider (`createOidcMount`, as `server.ts` does) and listen on a free loopback port, whose
   * origin becomes PUBLIC_URL: for flows that need real redirects and back-channel calls.
   */
  oidc?: boolean;
}

let passwordHash: Promise<string> | undefined;

/** Writes a minimal shell build: index.html with nonce placeholders and one hashed asset. */
export function writeFakeShell(dir: string): void {
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><title>Identity</title><script nonce="__CSP_NONCE__">window.boot=1</script></head><body><div id="root"></div><script src="/assets/main.0123abcd.js"></script></body></html>',
  );
  writeFileSync(
    path.join(dir, 'assets', 'main.0123abcd.js'),
    `console.log(${JSON.stringify('x'.repeat(4000))});`,
  );
  writeFileSync(path.join(dir, 'sw.js'), 'self.addEventListener("install",()=>{});');
}

/** Starts a gateway in-process. Remember to `close()` it. */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const backend = options.backend ?? 'sqlite';
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-test-'));
  const shellDist = path.join(dataDir, 'shell');
  writeFakeShell(shellDist);
  const clock = new ManualClock(Date.now());
  const now = options.realClock ? () => Date.now() : () => clock.now();
  const clockDep = options.realClock ? { now: () => Date.now() } : clock;
  const config: GatewayConfig = {
    port: 0,
    publicUrl: 'http://localhost:8080',
    secure: false,
    dataDir,
    databaseUrl: undefined,
    redisUrl: undefined,
    shellDist,
    seedDemoData: false,
    secretKey: randomBytes(32),
    dataEncryptionKey: randomBytes(32),
    smtpUrl: undefined,
    logLevel: 'silent',
    trustProxy: 'loopback',
    sessionIdleMs: 30 * 60_000,
    authorizationsPerMinute: 120,
    sessionAbsoluteMs: 12 * 3_600_000,
    ...options.config,
  };

  let server: LoopbackServer | undefined;
  const limits = { ...DEFAULT_THROTTLE_LIMITS, ...options.throttleLimits };
  const cleanups: (() => Promise<void>)[] = [];
  if (options.oidc) {
    const listening = await listenOnLoopback();
    server = listening;
    config.publicUrl = listening.origin;
    cleanups.unshift(() => listening.close());
  }
  const backends = await openTestBackends({
    sql: backend === 'postgres-redis' ? 'postgres' : 'sqlite',
    redis: backend === 'postgres-redis',
    dir: dataDir,
    dataEncryptionKey: config.dataEncryptionKey,
    now,
  });
  cleanups.push(() => backends.close());
  const { store, redis: redisClient, keyPrefix } = backends;
  let sessionStore: SessionStore;
  let throttle: LoginThrottle;
  if (redisClient) {
    sessionStore = new RedisSessionStore(redisClient, now, `${keyPrefix}session:`);
    throttle = new LoginThrottle({ kind: 'redis', client: redisClient }, limits, `${keyPrefix}throttle`);
  } else {
    sessionStore = options.sqlSessions
      ? new SqlSessionStore(store.database.db, now, store.database.committedReader)
      : new MemorySessionStore(now);
    throttle = new LoginThrottle({ kind: 'memory' }, limits);
  }
  const kv: KeyValueStore = redisClient
    ? new RedisKeyValueStore(redisClient, `${keyPrefix}kv:`)
    : new SqlKeyValueStore(store.database.db, store.database.dialect, { now });
  const metrics = new Metrics();
  const logger = pino({ level: 'silent' });
  // A short poll: a suite's CLI command is served by the app about as soon as it returns (ADR 0033).
  const releases = new ReleaseRegistry(store.releases, {
    pollMs: 100,
    listen: backend === 'postgres-redis' ? { connectionString: process.env.TEST_DATABASE_URL! } : undefined,
  });
  await releases.start();
  // Before the store closes: the registry's poll must not outlive it.
  cleanups.unshift(() => releases.close());
  let oidc: AppDeps['oidc'];
  if (options.oidc) {
    // The provider keeps the production Redis prefix, so the admin CLI's revocation finds its artefacts as it
    // would in production; they expire on their own.
    const mount = await createOidcMount(config, store, redisClient, logger);
    oidc = mount;
    // Before the store closes: its purge timer must not outlive the test.
    cleanups.unshift(() => Promise.resolve(mount.close()));
  }
  // Not started: a suite flushes the counts when it reads them from the store.
  const healthCounts = new HealthCounter({
    repository: store.releaseHealth,
    metrics,
    now: () => clock.now(),
  });
  const deps: AppDeps = {
    healthCounts,
    config,
    store,
    sessionStore,
    throttle,
    clock: clockDep,
    metrics,
    logger,
    kv,
    releases,
    ...(oidc ? { oidc } : {}),
    // The suites of the throttle, recovery and the protocol see their own layer: no captcha stands in front of
    // guarded calls unless a suite asks for it (the captcha suite sets `captchaFallback`; e2e runs the default).
    captchaFallback: { when: 'never' },
    ...options.overrides,
  };
  const app = createApp(deps);
  server?.server.on('request', app);
  return {
    app,
    config,
    store,
    clock,
    sessionStore,
    kv,
    metrics,
    releases,
    healthCounts,
    dataDir,
    shellDist,
    url: server ? config.publicUrl : undefined,
    redis: redisClient,
    appWith: (overrides) => createApp({ ...deps, ...overrides }),
    async addUser(input = {}) {
      passwordHash ??= hashPassword(TEST_PASSWORD);
      const username = input.username ?? `user-${randomBytes(4).toString('hex')}`;
      return store.users.create({
        email: `${username}@example.test`,
        displayName: 'Test User',
        roles: ['EMPLOYEE'],
        ...input,
        username,
        passwordHash: input.password ? await hashPassword(input.password) : await passwordHash,
      });
    },
    async close() {
      for (const cleanup of cleanups) await cleanup();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
