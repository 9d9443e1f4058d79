/**
 * In-process harness for the OIDC suites: the real store (SQLite file, or PostgreSQL in a fresh schema), optionally
 * Redis, the real provider mounted on an Express app listening on a free port, a cookie-jar "browser" that follows
 * redirects by hand, and a stand-in for the gateway session (a cookie naming the signed-in account) so these tests
 * do not depend on the sign-in state machine.
 */
import { createHash, createPublicKey, randomBytes, verify as verifySignature } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express, { type Request } from 'express';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { openStore, type Store } from '../../store/store.js';
import type { NewOidcClient } from '../../store/client.repository.js';
import { createOidcProvider, type OidcLifetimes, type OidcService } from '../oidc-provider.js';
import type { OidcAccountClaims, OidcDatabase } from '../types.js';

/** Which storage the suite runs on. */
export type OidcVariant = 'sqlite' | 'postgres' | 'redis';

const ACCOUNT_COOKIE = 'test.account';

/** A tiny browser: a cookie jar (name + path) and manual redirects. */
export class TestBrowser {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  constructor(private readonly origin: string) {}

  setCookie(name: string, value: string, cookiePath = '/'): void {
    this.cookies.set(`${name};${cookiePath}`, { value, path: cookiePath });
  }

  private cookieHeader(pathname: string): string {
    return [...this.cookies.entries()]
      .filter(([, c]) => pathname.startsWith(c.path))
      .map(([key, c]) => `${key.split(';')[0]}=${c.value}`)
      .join('; ');
  }

  private store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((p) => p.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const pathAttr = attributes.find((a) => a.toLowerCase().startsWith('path='));
      const cookiePath = pathAttr ? pathAttr.slice(5) : '/';
      const expired =
        attributes.some((a) => /^max-age=0$/i.test(a)) ||
        attributes.some((a) => /^expires=.*1970/i.test(a)) ||
        value === '';
      if (expired) this.cookies.delete(`${name};${cookiePath}`);
      else this.cookies.set(`${name};${cookiePath}`, { value, path: cookiePath });
    }
  }

  /** One request on the issuer's origin, cookies sent and stored, redirects not followed. */
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url, this.origin);
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(target.pathname);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(target, { ...init, headers, redirect: 'manual' });
    this.store(response);
    return response;
  }

  /**
   * Follows redirects on the issuer's origin until a response is not a redirect, or the redirect leaves the
   * origin (a client's redirect_uri) or reaches `stopAt` (a path such as the sign-in page).
   */
  async follow(url: string, stopAt: readonly string[] = []): Promise<{ url: string; response?: Response }> {
    let current = new URL(url, this.origin).href;
    for (let hops = 0; hops < 20; hops += 1) {
      const parsed = new URL(current);
      if (parsed.origin !== this.origin || stopAt.some((p) => parsed.pathname === p)) return { url: current };
      const response = await this.request(current);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { url: current, response };
      current = new URL(location, current).href;
    }
    throw new Error('too many redirects');
  }
}

/** PKCE pair (RFC 7636 §4.1–4.2, S256). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Decodes a JWT's header and payload without verifying (the tests verify with {@link verifyJwt}). */
export function decodeJwt(token: string): {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
} {
  const [header = '', payload = ''] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>,
  };
}

/** Verifies a JWS with the issuer's published JWKS (RS256 or ES256); returns its payload or throws. */
export async function verifyJwt(token: string, jwksUrl: string): Promise<Record<string, unknown>> {
  const { header, payload } = decodeJwt(token);
  const { keys } = (await (await fetch(jwksUrl)).json()) as { keys: Array<Record<string, string>> };
  const jwk = keys.find((k) => k.kid === header.kid);
  if (!jwk) throw new Error(`no published key ${String(header.kid)}`);
  const [h = '', p = '', s = ''] = token.split('.');
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  const data = Buffer.from(`${h}.${p}`);
  const signature = Buffer.from(s, 'base64url');
  const ok =
    header.alg === 'RS256'
      ? verifySignature('sha256', data, key, signature)
      : header.alg === 'ES256'
        ? verifySignature('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature)
        : false;
  if (!ok) throw new Error('bad signature');
  return payload;
}

/** A running provider with its store and helpers. */
export interface OidcHarness {
  issuer: string;
  store: Store;
  service: OidcService;
  accounts: Map<string, OidcAccountClaims>;
  /** Registers a client in the store (what the admin CLI does). */
  addClient(client: NewOidcClient): Promise<void>;
  browser(): TestBrowser;
  /** Marks the browser as signed in on the sign-in site (stand-in for the gateway session). */
  signIn(browser: TestBrowser, accountId: string, authTime?: number): void;
  close(): Promise<void>;
}

/** Options of {@link startOidcHarness}. */
export interface OidcHarnessOptions {
  variant: OidcVariant;
  lifetimes?: Partial<OidcLifetimes>;
  /** How often the provider re-reads its signing keys (default: the provider's). */
  keyPollIntervalMs?: number;
}

function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** Starts the provider on a free port over the chosen storage. */
export async function startOidcHarness(options: OidcHarnessOptions): Promise<OidcHarness> {
  const tempDir = mkdtempSync(path.join(tmpdir(), 'oidc-test-'));
  const cleanups: Array<() => Promise<void> | void> = [
    () => rmSync(tempDir, { recursive: true, force: true }),
  ];

  let store: Store;
  if (options.variant === 'postgres') {
    const databaseUrl = process.env.TEST_DATABASE_URL!;
    const schema = `oidc_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    store = await openStore({ databaseUrl, pgSchema: schema, dataEncryptionKey: randomBytes(32) });
    cleanups.push(async () => {
      const drop = new pg.Client({ connectionString: databaseUrl });
      await drop.connect();
      await drop.query(`drop schema ${schema} cascade`);
      await drop.end();
    });
  } else {
    store = await openStore({
      sqliteFile: path.join(tempDir, 'identity.db'),
      dataEncryptionKey: randomBytes(32),
    });
  }
  cleanups.unshift(() => store.database.close());

  let redis: Redis | undefined;
  let redisPrefix: string | undefined;
  if (options.variant === 'redis') {
    redis = new Redis(process.env.TEST_REDIS_URL!, { lazyConnect: false, maxRetriesPerRequest: 2 });
    redisPrefix = `oidc-test-${randomBytes(6).toString('hex')}:`;
    const r = redis;
    const prefix = redisPrefix;
    cleanups.unshift(async () => {
      const keys = await r.keys(`${prefix}*`);
      if (keys.length > 0) await r.del(...keys);
      r.disconnect();
    });
  }

  const accounts = new Map<string, OidcAccountClaims>();
  const app = express();
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const service = await createOidcProvider({
    issuer,
    db: store.database.db as unknown as Kysely<OidcDatabase>,
    redis,
    redisPrefix,
    secretKey: randomBytes(32),
    findAccount: (id) => Promise.resolve(accounts.get(id)),
    findClient: (id) => store.clients.findById(id),
    getSignedInAccount: (req) => {
      const value = readCookie(req, ACCOUNT_COOKIE);
      if (!value) return undefined;
      const [accountId = '', authTime] = value.split('|');
      return { accountId, authTime: authTime ? Number(authTime) : undefined };
    },
    lifetimes: options.lifetimes,
    purgeIntervalMs: 0,
    keyPollIntervalMs: options.keyPollIntervalMs,
    // Failures the provider only reports as events (server errors, back-channel delivery) fail loudly in tests.
    logger: {
      error: (details, message) => console.error(message, details),
      warn: (details, message) => console.warn(message, details),
      info: () => undefined,
    },
  });
  cleanups.unshift(() => service.close());

  // Stand-ins for the sign-in site's pages and its Logout call.
  app.get(['/account/login', '/account/logout', '/account/loggedout', '/error/expired'], (req, res) => {
    res.type('text').send(`page ${req.path}`);
  });
  service.mount(app);
  app.post('/test/logout', async (req, res) => {
    const logoutId = typeof req.query.logoutId === 'string' ? req.query.logoutId : undefined;
    res.json(await service.endOidcSession(logoutId, req, res));
  });
  app.get('/test/logout-view', async (req, res) => {
    const logoutId = typeof req.query.logoutId === 'string' ? req.query.logoutId : '';
    res.json((await service.describeLogout(logoutId, req, res)) ?? null);
  });
  cleanups.unshift(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  return {
    issuer,
    store,
    service,
    accounts,
    async addClient(client) {
      await store.clients.create(client);
    },
    browser: () => new TestBrowser(issuer),
    signIn(browser, accountId, authTime = Math.floor(Date.now() / 1000)) {
      browser.setCookie(ACCOUNT_COOKIE, `${accountId}|${authTime}`);
    },
    async close() {
      for (const cleanup of cleanups) await cleanup();
    },
  };
}

/** A local HTTP listener that records back-channel logout requests. */
export interface BackchannelListener {
  url: string;
  received: URLSearchParams[];
  close(): Promise<void>;
}

/** Starts a {@link BackchannelListener} on a free loopback port. */
export async function startBackchannelListener(): Promise<BackchannelListener> {
  const received: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push(new URLSearchParams(body));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/backchannel-logout`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A SQLite store in a temporary folder, for OIDC unit suites that need only the database. */
export interface TempOidcStore {
  store: Store;
  db: Kysely<OidcDatabase>;
  close(): Promise<void>;
}

/** Opens a migrated SQLite store in a fresh temporary folder; `close` removes it. */
export async function openTempOidcStore(prefix: string): Promise<TempOidcStore> {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const store = await openStore({
    sqliteFile: path.join(dir, 'identity.db'),
    dataEncryptionKey: randomBytes(32),
  });
  return {
    store,
    db: store.database.db as unknown as Kysely<OidcDatabase>,
    close: async () => {
      await store.database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
