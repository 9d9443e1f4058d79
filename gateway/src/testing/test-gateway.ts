import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import { pino } from 'pino';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import pg from 'pg';
import request from 'supertest';
import { createApp, type AppDeps } from '../app.js';
import type { GatewayConfig } from '../config.js';
import { hashPassword } from '../identity/passwords.service.js';
import { ManualClock } from '../infra/clock.js';
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
import { createOidcMount } from '../oidc.mount.js';
import { openStore, type Store } from '../store/store.js';
import type { NewUser, User } from '../store/user.repository.js';

/** Which backends a test gateway uses: the embedded default, or PostgreSQL + Redis from TEST_* variables. */
export type Backend = 'sqlite' | 'postgres-redis';

/** Backends to run the suites on: SQLite always, PostgreSQL + Redis when both TEST_ variables are set. */
export const BACKENDS: { name: Backend; skip: string | false }[] = [
  { name: 'sqlite', skip: false },
  {
    name: 'postgres-redis',
    skip:
      process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL
        ? false
        : 'TEST_DATABASE_URL and TEST_REDIS_URL are not set (.ci/run sets them when PostgreSQL and Redis answer)',
  },
];

/** The password of users made by {@link TestGateway.addUser}. */
export const TEST_PASSWORD = 'Correct-Horse-9!';

/** A gateway running in-process on a temp DATA_DIR with a fake shell build. */
export interface TestGateway {
  app: Express;
  config: GatewayConfig;
  store: Store;
  clock: ManualClock;
  sessionStore: SessionStore;
  metrics: Metrics;
  dataDir: string;
  shellDist: string;
  /** With `oidc: true`: the origin the gateway listens on (also its issuer, PUBLIC_URL). */
  url: string | undefined;
  /** The Redis client of the postgres-redis backend (the OIDC artefacts live there with `oidc: true`). */
  redis: Redis | undefined;
  addUser(input?: Partial<NewUser> & { password?: string }): Promise<User>;
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
    sessionAbsoluteMs: 12 * 3_600_000,
    ...options.config,
  };

  let store: Store;
  let sessionStore: SessionStore;
  let throttle: LoginThrottle;
  const limits = { ...DEFAULT_THROTTLE_LIMITS, ...options.throttleLimits };
  const cleanups: (() => Promise<void>)[] = [];
  let server: Server | undefined;
  if (options.oidc) {
    server = createServer();
    const listening = server;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    config.publicUrl = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    cleanups.unshift(
      () =>
        new Promise<void>((resolve) => {
          listening.closeAllConnections();
          listening.close(() => resolve());
        }),
    );
  }
  let redisClient: Redis | undefined;
  if (backend === 'postgres-redis') {
    // A fresh schema per gateway keeps runs independent; it is dropped on close.
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    store = await openStore({
      databaseUrl: process.env.TEST_DATABASE_URL,
      pgSchema: schema,
      dataEncryptionKey: config.dataEncryptionKey,
      now,
    });
    const redis = new Redis(process.env.TEST_REDIS_URL!, {
      enableOfflineQueue: true,
      maxRetriesPerRequest: 1,
    });
    redisClient = redis;
    const prefix = `test:${schema}:`;
    sessionStore = new RedisSessionStore(redis, now, `${prefix}session:`);
    throttle = new LoginThrottle({ kind: 'redis', client: redis }, limits, `${prefix}throttle`);
    cleanups.push(async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      await store.database.close();
      const drop = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await drop.connect();
      await drop.query(`drop schema ${schema} cascade`);
      await drop.end();
    });
  } else {
    store = await openStore({
      sqliteFile: path.join(dataDir, 'identity.db'),
      dataEncryptionKey: config.dataEncryptionKey,
      now,
    });
    sessionStore = options.sqlSessions
      ? new SqlSessionStore(store.database.db, now)
      : new MemorySessionStore(now);
    throttle = new LoginThrottle({ kind: 'memory' }, limits);
    cleanups.push(() => store.database.close());
  }
  const metrics = new Metrics();
  const logger = pino({ level: 'silent' });
  let oidc: AppDeps['oidc'];
  if (options.oidc) {
    const mount = await createOidcMount(config, store, redisClient, logger);
    oidc = mount;
    // Before the store closes: its purge timer must not outlive the test.
    cleanups.unshift(() => Promise.resolve(mount.close()));
  }
  const app = createApp({
    config,
    store,
    sessionStore,
    throttle,
    clock: clockDep,
    metrics,
    logger,
    ...(oidc ? { oidc } : {}),
    ...options.overrides,
  });
  server?.on('request', app);
  return {
    app,
    config,
    store,
    clock,
    sessionStore,
    metrics,
    dataDir,
    shellDist,
    url: server ? config.publicUrl : undefined,
    redis: redisClient,
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

/** A supertest agent (cookie jar) with an anti-forgery token fetched. */
export async function browser(app: Express, ip?: string) {
  const agent = request.agent(app);
  if (ip) agent.set('X-Forwarded-For', ip);
  const res = await agent.get('/api/Account/Antiforgery').expect(200);
  let token = (res.body as { token: string }).token;
  return {
    agent,
    get token() {
      return token;
    },
    set token(value: string) {
      token = value;
    },
    /** POST JSON with the anti-forgery header. */
    post(url: string, body: unknown = {}) {
      return agent
        .post(url)
        .set('x-csrf-token-value', token)
        .send(body as object);
    },
    /** Follows a 209 the way the client does: Exchange the state for a fresh token. */
    async exchange(state: string) {
      const r = await agent
        .post('/api/Account/Exchange')
        .set('x-csrf-token-value', token)
        .send({ state })
        .expect(200);
      token = (r.body as { token: string }).token;
      return token;
    },
    /** Signs in with the password; returns the 209 body after the exchange. */
    async signIn(username: string, password = TEST_PASSWORD, extra: Record<string, unknown> = {}) {
      const r = await agent
        .post('/api/Account/Login')
        .set('x-csrf-token-value', token)
        .send({ username, password, rememberMe: false, ...extra });
      if (r.status === 209) await this.exchange((r.body as { state: string }).state);
      return r;
    },
  };
}

/** Reads the session cookie value from a response's Set-Cookie. */
export function sessionCookieOf(
  res: { headers: Record<string, unknown> },
  name = 'idp.session',
): string | undefined {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
  const found = list.find((c) => c.startsWith(`${name}=`));
  return found?.split(';')[0]?.slice(name.length + 1);
}

/** Runs a raw SQL statement (test setup). */
export async function rawSql(store: Store, text: string): Promise<void> {
  await sql.raw(text).execute(store.database.db);
}
