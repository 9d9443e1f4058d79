/**
 * The OpenID Connect provider of the identity service (issue 3; ARCHITECTURE.md "OpenID Connect for the
 * applications"): oidc-provider 9 configured for authorization code + PKCE S256 only, rotating refresh tokens,
 * RP-initiated logout confirmed on the sign-in site and back-channel logout, storing its artefacts in our store.
 *
 * `createOidcProvider` returns an {@link OidcService}; the gateway's `createApp(deps)` calls `deps.oidc.mount(app)`
 * before the shell fallback, and its Logout call uses `endOidcSession` (see README.md beside this file).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import Provider from 'oidc-provider';
import type {
  AdapterFactory,
  AdapterPayload,
  ClientMetadata,
  Configuration,
  KoaContextWithOIDC,
  Session,
} from 'oidc-provider';
import { handleInteraction } from './interaction.router.js';
import { createRedisAdapterFactory } from './redis.adapter.js';
import { DEFAULT_KEY_POLL_INTERVAL_MS, loadSigningKeys } from './signing-keys.js';
import { createSqlAdapterFactory, purgeExpiredOidcPayloads } from './sql.adapter.js';
import type {
  FindOidcAccount,
  FindOidcClient,
  GetSignedInAccount,
  OidcClientRecord,
  OidcDatabase,
  SignedInAccount,
} from './types.js';

/** Path of every OIDC endpoint; the discovery document lists them (issuer = PUBLIC_URL, no path). */
export const OIDC_ROUTES = {
  authorization: '/connect/authorize',
  token: '/connect/token',
  userinfo: '/connect/userinfo',
  end_session: '/connect/endsession',
  jwks: '/connect/jwks',
  revocation: '/connect/revocation',
  introspection: '/connect/introspect',
  pushed_authorization_request: '/connect/par',
  registration: '/connect/register',
  code_verification: '/connect/device',
  device_authorization: '/connect/deviceauth',
  backchannel_authentication: '/connect/ciba',
  challenge: '/connect/challenge',
} as const;

/** Scopes the provider knows; `customer` travels with `roles` because both say what the user may act on. */
export const OIDC_SCOPES = ['openid', 'profile', 'email', 'roles', 'offline_access'] as const;

/** Lifetimes in seconds. The authorization code lives at most 60 s (S36). */
export interface OidcLifetimes {
  authorizationCode: number;
  accessToken: number;
  idToken: number;
  refreshToken: number;
  grant: number;
  session: number;
  interaction: number;
}

const DEFAULT_LIFETIMES: OidcLifetimes = {
  authorizationCode: 60,
  accessToken: 10 * 60,
  idToken: 60 * 60,
  refreshToken: 14 * 24 * 3600,
  grant: 14 * 24 * 3600,
  session: 12 * 3600,
  interaction: 60 * 60,
};

/** pino-compatible logger slice. */
export interface OidcLogger {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/** What `createOidcProvider` needs. */
export interface OidcProviderOptions {
  /** PUBLIC_URL: the issuer and the origin of every endpoint. */
  issuer: string;
  /** The store's Kysely instance (SQLite or PostgreSQL): signing keys always, artefacts unless `redis` is given. */
  db: Kysely<OidcDatabase>;
  /** When REDIS_URL is set: the short-lived artefacts (codes, tokens, sessions, interactions) live in Redis. */
  redis?: Redis | undefined;
  /** Key prefix in Redis (default `oidc:`). */
  redisPrefix?: string | undefined;
  /** SECRET_KEY; the cookie signing key is derived from it. Several: the first signs, all verify (rotation). */
  secretKey: Buffer | readonly Buffer[];
  /** oidc-provider `proxy` (trust X-Forwarded-*), from the gateway's TRUST_PROXY. */
  proxy?: boolean | undefined;
  findAccount: FindOidcAccount;
  findClient: FindOidcClient;
  getSignedInAccount: GetSignedInAccount;
  /** Sign-in page (default `/account/login`); the interaction passes `returnUrl=/interaction/<uid>`. */
  loginPath?: string | undefined;
  /** Sign-out confirmation page (default `/account/logout`); receives `logoutId`. */
  logoutPath?: string | undefined;
  /** Page after sign-out (default `/account/loggedout`). */
  loggedOutPath?: string | undefined;
  /** Error page for a dead interaction (default `/error/expired`). */
  expiredPath?: string | undefined;
  lifetimes?: Partial<OidcLifetimes> | undefined;
  logger?: OidcLogger | undefined;
  /**
   * Let the provider's outgoing requests (back-channel logout) reach loopback and private addresses. oidc-provider
   * blocks them against SSRF; our only outgoing URLs are back-channel URIs that operators register with the admin
   * CLI (dynamic registration is off). Default: true when the issuer is on localhost/127.0.0.1 (development and the
   * demo portal on localhost:4000), false otherwise.
   */
  allowPrivateNetworkFetch?: boolean | undefined;
  /** How often expired rows are purged from `oidc_payloads` (default 10 min; 0 = never). */
  purgeIntervalMs?: number | undefined;
  /**
   * How often the signing key set is re-read (default {@link DEFAULT_KEY_POLL_INTERVAL_MS}; 0 = never): a rotation
   * made by the admin CLI or another replica, or a delayed generation becoming active, swaps in a provider with the
   * new keys without a restart.
   */
  keyPollIntervalMs?: number | undefined;
}

/** What LogoutView needs to know about a pending RP-initiated logout. */
export interface LogoutDescription {
  logoutId: string;
  clientId: string | undefined;
  clientName: string | undefined;
  /**
   * False only when the relying party proved who it logs out with a valid id_token_hint; otherwise the user must
   * confirm (S32: logout needs id_token_hint or the user's confirmation).
   */
  showLogoutPrompt: boolean;
  /** Where the user goes after signing out (already exact-matched against the client's registration). */
  postLogoutRedirectUri: string | undefined;
}

/** The outcome of ending the OIDC session. */
export interface EndedOidcSession {
  /** True when there was an OIDC session (with an account) and it is now gone. */
  ended: boolean;
  /** Clients that were sent a back-channel logout token (delivered or not; failures are logged). */
  backchannelClients: string[];
  /** The registered post_logout_redirect_uri (+ state) when logoutId matched a pending logout; else undefined. */
  postLogoutRedirectUri: string | undefined;
  clientId: string | undefined;
  clientName: string | undefined;
}

/** The provider as the gateway uses it. */
export interface OidcService {
  /** The live oidc-provider instance (replaced by `reload`). */
  readonly provider: Provider;
  /** Adds `/interaction/:uid`, `/connect/*` and `/.well-known/openid-configuration` to the app. */
  mount(app: Express): void;
  /** Re-reads the signing keys (after `rotateSigningKeys`) and swaps in a provider that signs with the newest. */
  reload(): Promise<void>;
  /** Details of the RP-initiated logout `logoutId` for the browser `req`; undefined when it is not pending. */
  describeLogout(logoutId: string, req: Request, res: Response): Promise<LogoutDescription | undefined>;
  /**
   * Ends the browser's OIDC session: back-channel logout to every client of the session that registered a URI,
   * grants revoked (except offline ones), OIDC session destroyed and its cookie cleared on `res`. Call it from the
   * gateway's Logout with the logoutId of the page (or undefined for a sign-out started on our own site).
   */
  endOidcSession(logoutId: string | undefined, req: Request, res: Response): Promise<EndedOidcSession>;
  /** Stops the purge and key-poll timers. */
  close(): void;
}

interface LogoutState {
  secret?: string;
  clientId?: string;
  state?: string;
  postLogoutRedirectUri?: string;
  /** Set by our logoutSource: the request carried a valid id_token_hint. */
  hinted?: boolean;
}

/** Maps a stored client to oidc-provider metadata; public clients (no secret) use PKCE with no client auth. */
export function toClientMetadata(client: OidcClientRecord): ClientMetadata {
  const confidential = typeof client.clientSecret === 'string' && client.clientSecret.length > 0;
  return {
    client_id: client.clientId,
    ...(client.name ? { client_name: client.name } : {}),
    ...(confidential ? { client_secret: client.clientSecret as string } : {}),
    token_endpoint_auth_method: confidential ? 'client_secret_basic' : 'none',
    redirect_uris: [...client.redirectUris],
    post_logout_redirect_uris: [...(client.postLogoutRedirectUris ?? [])],
    ...(client.backchannelLogoutUri
      ? { backchannel_logout_uri: client.backchannelLogoutUri, backchannel_logout_session_required: true }
      : {}),
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    first_party: client.firstParty !== false,
  };
}

function deriveCookieKeys(secretKey: Buffer | readonly Buffer[]): string[] {
  const keys = Buffer.isBuffer(secretKey) ? [secretKey] : [...secretKey];
  // A derived key, so the raw SECRET_KEY used for sessions and anti-forgery never signs a second kind of value.
  return keys.map((key) => createHmac('sha256', key).update('oidc-provider cookies v1').digest('base64url'));
}

function normaliseAccount(value: SignedInAccount | string | undefined): SignedInAccount | undefined {
  if (!value) return undefined;
  return typeof value === 'string' ? { accountId: value } : value;
}

function constantEquals(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Adapter factory that serves the `Client` kind from the store's clients, and everything else from `inner`. */
function withStoreClients(inner: AdapterFactory, findClient: FindOidcClient): AdapterFactory {
  return (kind: string) => {
    if (kind !== 'Client') return inner(kind);
    const readOnly = (): Promise<void> =>
      Promise.reject(new Error('OIDC clients are managed with the admin CLI'));
    return {
      async find(id: string): Promise<AdapterPayload | undefined> {
        const client = await findClient(id);
        return client ? toClientMetadata(client) : undefined;
      },
      findByUid: () => Promise.resolve(undefined),
      findByUserCode: () => Promise.resolve(undefined),
      upsert: readOnly,
      consume: readOnly,
      destroy: readOnly,
      revokeByGrantId: () => Promise.resolve(),
    };
  };
}

/** Builds the provider's configuration (exported for review and tests; the gateway calls createOidcProvider). */
export function buildOidcConfiguration(
  options: OidcProviderOptions,
  adapter: AdapterFactory,
  keys: Configuration['jwks'],
): Configuration {
  const lifetimes = { ...DEFAULT_LIFETIMES, ...options.lifetimes };
  const loginPath = options.loginPath ?? '/account/login';
  const logoutPath = options.logoutPath ?? '/account/logout';
  const loggedOutPath = options.loggedOutPath ?? '/account/loggedout';
  const issuerUrl = new URL(options.issuer);
  const secure = issuerUrl.protocol === 'https:';
  const allowPrivate =
    options.allowPrivateNetworkFetch ?? ['localhost', '127.0.0.1', '[::1]'].includes(issuerUrl.hostname);

  return {
    adapter,
    jwks: keys,
    routes: OIDC_ROUTES,
    scopes: [...OIDC_SCOPES],
    claims: {
      openid: ['sub'],
      profile: ['name'],
      email: ['email', 'email_verified'],
      roles: ['roles', 'customer'],
    },
    // The relying parties read name and roles from the ID token (issue 3 proof), not only from userinfo.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    // PKCE for every client, confidential ones too (S36); oidc-provider 9 supports only S256.
    pkce: { required: () => true },
    // Rotate on every use; a reused refresh token revokes its grant (oidc-provider + our atomic consume).
    rotateRefreshToken: true,
    // Exact redirect_uri always (S32): never fill it in from the registration.
    allowOmittingSingleRegisteredRedirectUri: false,
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'RS256',
    },
    extraClientMetadata: { properties: ['first_party'] },
    async findAccount(_ctx, sub) {
      const claims = await options.findAccount(sub);
      if (!claims) return undefined;
      return {
        accountId: sub,
        claims: () => {
          const { roles, ...rest } = claims;
          return { ...rest, ...(roles ? { roles: [...roles] } : {}), sub };
        },
      };
    },
    interactions: {
      async url(ctx, interaction) {
        const resume = `/interaction/${interaction.uid}`;
        const signedIn = normaliseAccount(await options.getSignedInAccount(ctx.req as Request));
        const forced = interaction.prompt.reasons.some((r) => r === 'login_prompt' || r === 'max_age');
        // Already signed in on the sign-in site and no fresh sign-in demanded: single sign-on, skip the form.
        if (signedIn && !forced) return resume;
        return `${loginPath}?returnUrl=${encodeURIComponent(resume)}`;
      },
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // The confirmation is the sign-in site's page; the xsrf secret of oidc-provider's form is our logoutId.
        logoutSource(ctx: KoaContextWithOIDC) {
          const state = ctx.oidc.session?.state as LogoutState | undefined;
          if (state) state.hinted = Boolean(ctx.oidc.entities.IdTokenHint);
          ctx.status = 303;
          ctx.redirect(`${logoutPath}?logoutId=${encodeURIComponent(state?.secret ?? '')}`);
        },
        postLogoutSuccessSource(ctx: KoaContextWithOIDC) {
          ctx.status = 303;
          ctx.redirect(loggedOutPath);
        },
      },
    },
    ttl: {
      AuthorizationCode: lifetimes.authorizationCode,
      AccessToken: lifetimes.accessToken,
      IdToken: lifetimes.idToken,
      RefreshToken: lifetimes.refreshToken,
      Grant: lifetimes.grant,
      Session: lifetimes.session,
      Interaction: lifetimes.interaction,
    },
    cookies: {
      keys: deriveCookieKeys(options.secretKey),
      names: {
        session: secure ? '__Host-idp.oidc.session' : 'idp.oidc.session',
        interaction: 'idp.oidc.interaction',
        resume: 'idp.oidc.resume',
      },
      long: { signed: true, httpOnly: true, sameSite: 'lax', path: '/' },
      // The interaction cookie must reach /interaction/<uid>, not the sign-in page interactions.url points at.
      short: { signed: true, httpOnly: true, sameSite: 'lax', path: '/interaction/' },
    },
    fetch: (url, init) => {
      // Dropping oidc-provider's SSRF-checking dispatcher is the switch; see allowPrivateNetworkFetch.
      if (!allowPrivate) return fetch(url, init);
      const { dispatcher: _dispatcher, ...rest } = init as RequestInit & { dispatcher?: unknown };
      return fetch(url, rest);
    },
    renderError(ctx, out) {
      ctx.type = 'html';
      const rows = Object.entries(out)
        .map(([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${escapeHtml(String(value))}</dd>`)
        .join('');
      ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in error</title></head><body><h1>Sign-in error</h1><dl>${rows}</dl></body></html>`;
    },
  };
}

/** Creates the OIDC provider over our store (and Redis when given), loading or generating the signing keys. */
export async function createOidcProvider(options: OidcProviderOptions): Promise<OidcService> {
  const inner = options.redis
    ? createRedisAdapterFactory(options.redis, options.redisPrefix)
    : createSqlAdapterFactory(options.db);
  const adapter = withStoreClients(inner, options.findClient);
  const expiredPath = options.expiredPath ?? '/error/expired';
  const loginPath = options.loginPath ?? '/account/login';

  const fingerprint = (keys: readonly { kid?: string | undefined }[]) =>
    keys.map((k) => k.kid ?? '').join(',');
  const build = async (): Promise<{ provider: Provider; handler: RequestHandler; keys: string }> => {
    const keys = await loadSigningKeys(options.db);
    const provider = new Provider(options.issuer, buildOidcConfiguration(options, adapter, { keys }));
    provider.proxy = options.proxy ?? false;
    const logger = options.logger;
    if (logger) {
      provider.on('server_error', (_ctx, error) => logger.error({ err: error }, 'oidc server error'));
      provider.on('backchannel.error', (_ctx, error, client) =>
        logger.warn({ err: error, clientId: client.clientId }, 'oidc back-channel logout failed'),
      );
      provider.on('grant.revoked', (_ctx, grantId) => logger.info({ grantId }, 'oidc grant revoked'));
    }
    const callback = provider.callback();
    return { provider, handler: (req, res) => void callback(req, res), keys: fingerprint(keys) };
  };

  let current = await build();

  // Replicas notice a key rotation (or a pending generation becoming active) within one interval: the key list's
  // kids, in signing order, changed.
  let keyTimer: NodeJS.Timeout | undefined;
  const keyPollEvery = options.keyPollIntervalMs ?? DEFAULT_KEY_POLL_INTERVAL_MS;
  if (keyPollEvery > 0) {
    keyTimer = setInterval(() => {
      loadSigningKeys(options.db)
        .then(async (keys) => {
          if (fingerprint(keys) === current.keys) return;
          current = await build();
          options.logger?.info({ kids: current.keys }, 'oidc signing keys reloaded');
        })
        .catch((error: unknown) => options.logger?.warn({ err: error }, 'oidc signing key check failed'));
    }, keyPollEvery);
    keyTimer.unref();
  }

  let timer: NodeJS.Timeout | undefined;
  const purgeEvery = options.purgeIntervalMs ?? 10 * 60_000;
  if (purgeEvery > 0 && !options.redis) {
    timer = setInterval(() => {
      purgeExpiredOidcPayloads(options.db).catch((error: unknown) =>
        options.logger?.warn({ err: error }, 'oidc payload purge failed'),
      );
    }, purgeEvery);
    timer.unref();
  }

  const sessionOf = async (
    req: Request,
    res: Response,
  ): Promise<{ session: Session; ctx: KoaContextWithOIDC }> => {
    const ctx = current.provider.createContext(req, res) as unknown as KoaContextWithOIDC;
    const session = await current.provider.Session.get(ctx);
    return { session, ctx };
  };

  const pendingLogout = (session: Session, logoutId: string | undefined): LogoutState | undefined => {
    const state = session.state as LogoutState | undefined;
    if (!logoutId || !state?.secret || !constantEquals(state.secret, logoutId)) return undefined;
    return state;
  };

  const clientName = async (clientId: string | undefined): Promise<string | undefined> => {
    if (!clientId) return undefined;
    return (await options.findClient(clientId))?.name ?? clientId;
  };

  const service: OidcService = {
    get provider() {
      return current.provider;
    },

    mount(app: Express) {
      app.get('/interaction/:uid', (req: Request, res: Response, next: NextFunction) => {
        handleInteraction(current.provider, req, res, {
          getSignedInAccount: options.getSignedInAccount,
          findClient: options.findClient,
          loginPath,
          expiredPath,
        }).catch(next);
      });
      app.use((req: Request, res: Response, next: NextFunction) => {
        if (req.path.startsWith('/connect/') || req.path === '/.well-known/openid-configuration') {
          current.handler(req, res, next);
          return;
        }
        next();
      });
    },

    async reload() {
      current = await build();
    },

    async describeLogout(logoutId, req, res) {
      const { session } = await sessionOf(req, res);
      const state = pendingLogout(session, logoutId);
      if (!state) return undefined;
      return {
        logoutId,
        clientId: state.clientId,
        clientName: await clientName(state.clientId),
        showLogoutPrompt: !state.hinted,
        postLogoutRedirectUri: state.postLogoutRedirectUri,
      };
    },

    async endOidcSession(logoutId, req, res) {
      const { session, ctx } = await sessionOf(req, res);
      const provider = current.provider;
      const state = pendingLogout(session, logoutId);
      const result: EndedOidcSession = {
        ended: false,
        backchannelClients: [],
        postLogoutRedirectUri: undefined,
        clientId: state?.clientId,
        clientName: await clientName(state?.clientId),
      };
      if (state?.postLogoutRedirectUri) {
        const target = new URL(state.postLogoutRedirectUri);
        if (state.state !== undefined) target.searchParams.set('state', state.state);
        result.postLogoutRedirectUri = target.href;
      }
      if (!session.accountId) return result;

      // Same steps as oidc-provider's end_session confirm (lib/actions/end_session.js), run from our Logout call
      // so the confirmation stays on the sign-in site (OpenID Connect RP-Initiated Logout 1.0 §2,
      // Back-Channel Logout 1.0 §2.7).
      const accountId = session.accountId;
      const authorizations = session.authorizations ?? {};
      await Promise.all(
        Object.keys(authorizations).map(async (clientId) => {
          const client = await provider.Client.find(clientId).catch(() => undefined);
          if (client?.backchannelLogoutUri) {
            result.backchannelClients.push(clientId);
            const sid = session.sidFor(clientId) ?? '';
            // Client#backchannelLogout exists in oidc-provider 9 but is missing from its type definitions.
            const sender = client as unknown as {
              backchannelLogout: (sub: string, sid: string) => Promise<void>;
            };
            await sender.backchannelLogout(accountId, sid).then(
              () => provider.emit('backchannel.success', ctx, client, accountId, sid),
              (error: unknown) => provider.emit('backchannel.error', ctx, error, client, accountId, sid),
            );
          }
          const { grantId, persistsLogout } = session.authorizationFor(clientId);
          if (grantId && !persistsLogout) await revokeGrant(provider, grantId);
        }),
      );
      await session.destroy();
      ctx.cookies.set(provider.cookieName('session'), null, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        signed: true,
        secure: ctx.secure,
      });
      result.ended = true;
      return result;
    },

    close() {
      if (timer) clearInterval(timer);
      if (keyTimer) clearInterval(keyTimer);
    },
  };
  return service;
}

async function revokeGrant(provider: Provider, grantId: string): Promise<void> {
  await Promise.all([
    provider.AccessToken.adapter.revokeByGrantId(grantId),
    provider.AuthorizationCode.adapter.revokeByGrantId(grantId),
    provider.RefreshToken.adapter.revokeByGrantId(grantId),
    provider.Grant.adapter.destroy(grantId),
  ]);
}
