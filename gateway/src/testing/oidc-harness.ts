/**
 * In-process harness for the OIDC suites, on the gateway harness's storage, loopback server and fake browser
 * (`src/testing/`): the real store (SQLite file, or PostgreSQL in a fresh schema), optionally Redis, the real
 * provider mounted on an Express app listening on a free port, and a stand-in for the gateway session (a cookie
 * naming the signed-in account) so these tests do not depend on the sign-in state machine.
 */
import { createHash, createPublicKey, randomBytes, verify as verifySignature } from 'node:crypto';
import express, { type Request } from 'express';
import type { Kysely } from 'kysely';
import type { Store } from '../store/store.js';
import type { NewOidcClient } from '../store/client.repository.js';
import { openTestBackends } from './backends.js';
import { TestBrowser } from './browser.js';
import { listenOnLoopback } from './loopback-server.js';
import {
  createOidcProvider,
  type InteractionLimit,
  type OidcLifetimes,
  type OidcService,
} from '../oidc/oidc-provider.js';
import type { OidcAccountClaims, OidcDatabase } from '../oidc/types.js';

export { rawGet, TestBrowser } from './browser.js';

/** Which storage the suite runs on. */
export type OidcVariant = 'sqlite' | 'postgres' | 'redis';

const ACCOUNT_COOKIE = 'test.account';

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
  /** Ends the stand-in site session, as the gateway's Logout does after ending the OIDC session. */
  signOutSite(browser: TestBrowser): void;
  close(): Promise<void>;
}

/** Options of {@link startOidcHarness}. */
export interface OidcHarnessOptions {
  variant: OidcVariant;
  lifetimes?: Partial<OidcLifetimes>;
  /** How often the provider re-reads its signing keys (default: the provider's). */
  keyPollIntervalMs?: number;
  /** New authorizations per source (default: the provider's). */
  interactionLimit?: InteractionLimit | false;
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
  const backends = await openTestBackends({
    sql: options.variant === 'postgres' ? 'postgres' : 'sqlite',
    redis: options.variant === 'redis',
    tempPrefix: 'oidc-test-',
  });
  const cleanups: Array<() => Promise<void> | void> = [() => backends.close()];
  const { store, redis } = backends;
  const redisPrefix = redis ? `${backends.keyPrefix}oidc:` : undefined;

  const accounts = new Map<string, OidcAccountClaims>();
  const app = express();
  const listening = await listenOnLoopback(app);
  const issuer = listening.origin;

  const service = await createOidcProvider({
    issuer,
    db: store.database.db as unknown as Kysely<OidcDatabase>,
    redis,
    redisPrefix,
    secretKey: randomBytes(32),
    // As the gateway with its default TRUST_PROXY: X-Forwarded-* headers reach the provider.
    proxy: true,
    findAccount: (id) => Promise.resolve(accounts.get(id)),
    findClient: (id) => store.clients.findEnabled(id),
    getSignedInAccount: (req) => {
      const value = readCookie(req, ACCOUNT_COOKIE);
      if (!value) return undefined;
      const [accountId = '', authTime] = value.split('|');
      return { accountId, authTime: authTime ? Number(authTime) : undefined };
    },
    lifetimes: options.lifetimes,
    purgeIntervalMs: 0,
    keyPollIntervalMs: options.keyPollIntervalMs,
    interactionLimit: options.interactionLimit,
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
  cleanups.unshift(() => listening.close());

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
    signOutSite(browser) {
      browser.setCookie(ACCOUNT_COOKIE, '');
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
  const listening = await listenOnLoopback((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push(new URLSearchParams(body));
      res.writeHead(200).end();
    });
  });
  return {
    url: `${listening.origin}/backchannel-logout`,
    received,
    close: () => listening.close(),
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
  const backends = await openTestBackends({ sql: 'sqlite', tempPrefix: prefix });
  const { store } = backends;
  return { store, db: store.database.db as unknown as Kysely<OidcDatabase>, close: () => backends.close() };
}
