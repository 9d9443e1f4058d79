/**
 * The OpenID Connect provider's life cycle (ARCHITECTURE.md "OpenID Connect for the applications"): create it over
 * our store, mount it on the gateway, swap in a new provider when the signing keys change, purge expired artefacts,
 * close. The pieces it assembles live beside it: `provider-configuration.ts` (claims, features, lifetimes, cookies),
 * `client.adapter.ts` (our clients table), `rp-initiated-logout.ts` (the sign-in site's logout hooks) and
 * `public-origin.ts` (every URL from PUBLIC_URL).
 *
 * `createOidcProvider` returns an {@link OidcService}; `oidc/mount.ts` wires it to the gateway (see README.md).
 */
import { isDependencyUnavailable, RETRY_AFTER_SECONDS } from '../infra/dependency-health.js';
import { setRetryAfter } from '../infra/throttle/wait.js';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import Provider from 'oidc-provider';
import { withStoreClients } from './client.adapter.js';
import type { KoaContextWithOIDC, Session } from 'oidc-provider';
import {
  endOidcSessionsOfAccount,
  linkOidcSessionToSiteSession,
  revokeOidcArtefactsOfAccount,
  type OidcSessionSelection,
  type RevokedArtefacts,
} from './account-revocation.js';
import { DEFAULT_INTERACTION_LIMIT, interactionGate, type InteractionLimit } from './interaction-limit.js';
import { carryCustomerInGrants } from './grant-customer.js';
import { handleInteraction } from './interaction.router.js';
import {
  buildOidcConfiguration,
  DEFAULT_LOGIN_PATH,
  DEFAULT_SELECT_CUSTOMER_PATH,
  OIDC_ROUTES,
  RESPONSE_MODES,
  sessionLifetimeSeconds,
  type OidcConfigurationOptions,
} from './provider-configuration.js';
import { pinPublicOrigin } from './public-origin.js';
import { createRedisAdapterFactory } from './redis.adapter.js';
import {
  createLogoutHooks,
  handOverEndSessionWithoutOidcSession,
  terminateOidcSession,
  type LogoutHooks,
} from './rp-initiated-logout.js';
import {
  endOidcSessionUnlessSiteSessionMatches,
  oidcSessionBelongsTo,
  sessionTtl,
  siteSessionReader,
  startOidcSessionForNoInteraction,
} from './site-session.js';
import { DEFAULT_KEY_POLL_INTERVAL_MS, loadSigningKeys } from './signing-keys.js';
import { createSqlAdapterFactory, purgeExpiredOidcPayloads } from './sql.adapter.js';
import type { FindOidcClient, OidcDatabase } from './types.js';
import { flushedOnce } from '../store/database.js';

export {
  buildOidcConfiguration,
  OIDC_ROUTES,
  type OidcConfigurationOptions,
  type OidcLifetimes,
} from './provider-configuration.js';
export { DEFAULT_INTERACTION_LIMIT, type InteractionLimit } from './interaction-limit.js';

/** pino-compatible logger slice. */
export interface OidcLogger {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/** What `createOidcProvider` needs. */
export interface OidcProviderOptions extends OidcConfigurationOptions {
  /** The store's Kysely instance (SQLite or PostgreSQL): signing keys always, artefacts unless `redis` is given. */
  db: Kysely<OidcDatabase>;
  /** When REDIS_URL is set: the short-lived artefacts (codes, tokens, sessions, interactions) live in Redis. */
  redis?: Redis | undefined;
  /** Key prefix in Redis (default `oidc:`). */
  redisPrefix?: string | undefined;
  /**
   * oidc-provider `proxy` (trust X-Forwarded-For), from the gateway's TRUST_PROXY. Host and protocol never come
   * from the request (public-origin.ts).
   */
  proxy?: boolean | undefined;
  findClient: FindOidcClient;
  /** Error page for a dead interaction (default `/error/expired`). */
  expiredPath?: string | undefined;
  /** Records a dead interaction and returns its error page with `errorId` (the gateway's error records). */
  recordExpiredInteraction?: ((req: Request) => Promise<string | undefined>) | undefined;
  logger?: OidcLogger | undefined;
  /** How often expired rows are purged from `oidc_payloads` (default 10 min; 0 = never). */
  purgeIntervalMs?: number | undefined;
  /**
   * How often the signing key set is re-read (default {@link DEFAULT_KEY_POLL_INTERVAL_MS}; 0 = never): a rotation
   * made by the admin CLI or another replica, or a delayed generation becoming active, swaps in a provider with the
   * new keys without a restart.
   */
  keyPollIntervalMs?: number | undefined;
  /**
   * New authorizations one source may start per window (default {@link DEFAULT_INTERACTION_LIMIT}; false = no
   * limit): each stores an interaction, so a loop of anonymous requests must not fill the store.
   */
  interactionLimit?: InteractionLimit | false | undefined;
}

/** What the sign-in side may know of an application's pending sign-in (`/interaction/<uid>`). */
export interface InteractionDescription {
  /** The authorization demands a fresh sign-in (`prompt=login`, `max_age`): SilentLogin never answers it. */
  freshSignIn: boolean;
  /** The registered name of the client that started it, when it has one. */
  clientName?: string;
}

/** The provider as the gateway uses it. */
export interface OidcService extends LogoutHooks {
  /** The live oidc-provider instance (replaced by `reload`). */
  readonly provider: Provider;
  /** Adds `/interaction/:uid`, `/connect/*` and `/.well-known/openid-configuration` to the app. */
  mount(app: Express): void;
  /** Re-reads the signing keys (after `rotateSigningKeys`) and swaps in a provider that signs with the newest. */
  reload(): Promise<void>;
  /** Stops the purge and key-poll timers. */
  close(): void;
  /**
   * What SilentLogin must know of an application's sign-in `/interaction/<uid>` (ADR 0020): whether it is alive
   * and whether it demands a fresh sign-in (`prompt=login`, `max_age`), which a remembered session never answers;
   * and, for LoginView, the registered name of the application that started it ("to continue to Payroll portal").
   */
  describeInteraction(uid: string): Promise<InteractionDescription | undefined>;
  /**
   * Ends the account's OIDC sessions made from the selected site sessions, as Logout ends one (back-channel logout,
   * grants with their refresh tokens revoked, offline ones too): the security centre's sign-out of other sessions.
   */
  endOidcSessionsOf(accountId: string, which: OidcSessionSelection): Promise<RevokedArtefacts>;
  /** Ends every OIDC session (with back-channel logout) and grant of the account (S15, S29). */
  revokeAccount(accountId: string): Promise<RevokedArtefacts>;
}

interface LiveProvider {
  provider: Provider;
  handler: RequestHandler;
  /** The signing keys' kids in signing order: a change means a rotation to pick up. */
  keys: string;
}

const fingerprint = (keys: readonly { kid?: string | undefined }[]) => keys.map((k) => k.kid ?? '').join(',');

/** Creates the OIDC provider over our store (and Redis when given), loading or generating the signing keys. */
export async function createOidcProvider(options: OidcProviderOptions): Promise<OidcService> {
  const inner = options.redis
    ? createRedisAdapterFactory(options.redis, options.redisPrefix)
    : createSqlAdapterFactory(options.db);
  const adapter = withStoreClients(inner, options.findClient);
  const expiredPath = options.expiredPath ?? '/error/expired';
  const loginPath = options.loginPath ?? DEFAULT_LOGIN_PATH;
  // Who is signed in on the site, read once per request: the OIDC session follows it (ADR 0006).
  const site = siteSessionReader(options.getSignedInAccount);
  const pages = {
    logoutPath: options.logoutPath ?? '/account/logout',
    loggedOutPath: options.loggedOutPath ?? '/account/loggedout',
  };
  const gate = interactionGate(
    options.interactionLimit ?? DEFAULT_INTERACTION_LIMIT,
    options.redis,
    `${options.redisPrefix ?? 'oidc:'}interaction-limit`,
  );

  const build = async (): Promise<LiveProvider> => {
    const keys = await loadSigningKeys(options.db);
    const provider = new Provider(options.issuer, buildOidcConfiguration(options, adapter, { keys }, site));
    provider.proxy = options.proxy ?? false;
    carryCustomerInGrants(provider);
    pinPublicOrigin(provider, options.issuer);
    // A call's writes (a code, a token, a consumed refresh token…) flushed to disk once, before Koa answers: one
    // wait where each write waited for its own flush in turn (group commit, ADR 0067).
    provider.use((_ctx, next) => flushedOnce(options.db, next));
    answerOutagesWithRetry(provider);
    provider.use(handOverEndSessionWithoutOidcSession(pages, site));
    // Which site session an OIDC session serves, recorded after every authorization that used or made it, so that
    // ending that site session from elsewhere ends this OIDC session too (ADR 0006).
    provider.use(async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
      await next();
      const route = ctx.oidc?.route;
      if (route !== 'authorization' && route !== 'resume') return;
      const session: (Session & { destroyed?: boolean }) | undefined = ctx.oidc.session;
      const signedIn = site.known(ctx.req);
      const accountId = session?.accountId;
      if (!session || !accountId || session.destroyed || !signedIn?.siteSessionKey) return;
      if (!oidcSessionBelongsTo(session, signedIn)) return;
      const left =
        typeof session.exp === 'number'
          ? session.exp - Math.floor(Date.now() / 1000)
          : sessionLifetimeSeconds(options);
      await linkOidcSessionToSiteSession(
        inner,
        session.jti,
        { accountId, siteSessionKey: signedIn.siteSessionKey },
        left,
      ).catch((error: unknown) =>
        options.logger?.warn({ err: error }, 'oidc session could not be linked to its site session'),
      );
    });
    provider.use(async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
      await next();
      // oidc-provider always lists form_post and fragment; we accept only what RESPONSE_MODES allows.
      if (ctx.oidc?.route === 'discovery' && ctx.body && typeof ctx.body === 'object') {
        (ctx.body as Record<string, unknown>).response_modes_supported = [...RESPONSE_MODES];
      }
    });
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

  // Redis expires its keys itself; SQL rows need sweeping.
  let purgeTimer: NodeJS.Timeout | undefined;
  const purgeEvery = options.purgeIntervalMs ?? 10 * 60_000;
  if (purgeEvery > 0 && !options.redis) {
    purgeTimer = setInterval(() => {
      purgeExpiredOidcPayloads(options.db).catch((error: unknown) =>
        options.logger?.warn({ err: error }, 'oidc payload purge failed'),
      );
    }, purgeEvery);
    purgeTimer.unref();
  }

  const logout = createLogoutHooks(() => current.provider, options.findClient, site);
  const artefacts = {
    db: options.db,
    redis: options.redis,
    redisPrefix: options.redisPrefix,
    provider: () => Promise.resolve(current.provider),
  };

  return {
    get provider() {
      return current.provider;
    },

    mount(app: Express) {
      app.get('/interaction/:uid', (req: Request, res: Response, next: NextFunction) => {
        handleInteraction(current.provider, req, res, {
          getSignedInAccount: options.getSignedInAccount,
          findClient: options.findClient,
          loginPath,
          selectCustomerPath: options.selectCustomerPath ?? DEFAULT_SELECT_CUSTOMER_PATH,
          expiredPath,
          expiredPage: options.recordExpiredInteraction,
        }).catch(next);
      });
      const authorize = OIDC_ROUTES.authorization;
      app.use(async (req: Request, res: Response, next: NextFunction) => {
        if (!req.path.startsWith('/connect/') && req.path !== '/.well-known/openid-configuration') {
          next();
          return;
        }
        try {
          if (req.path === authorize) {
            // A new authorization: within the source's allowance, and answered from an OIDC session only while
            // the site session that made it lives (ADR 0006).
            if (!(await gate(req, res))) return;
            const provider = current.provider;
            const signedIn = await site.read(req);
            await endOidcSessionUnlessSiteSessionMatches(provider, req, res, signedIn, terminateOidcSession);
            // prompt=none answers from the site session too, not only from an earlier application's (ADR 0020).
            await startOidcSessionForNoInteraction(
              provider,
              req,
              res,
              signedIn,
              sessionTtl(site, sessionLifetimeSeconds(options)),
            );
          } else if (req.path.startsWith(`${authorize}/`) || req.path.startsWith(OIDC_ROUTES.end_session)) {
            // The resume sets the OIDC cookie's lifetime, the end-session asks who is signed in: read it now for
            // oidc-provider's synchronous hooks.
            await site.read(req);
          }
        } catch (error) {
          next(error);
          return;
        }
        current.handler(req, res, next);
      });
    },

    async reload() {
      current = await build();
    },

    describeLogout: (logoutId, req, res) => logout.describeLogout(logoutId, req, res),
    async describeInteraction(uid) {
      const interaction = await current.provider.Interaction.find(uid).catch(() => undefined);
      if (!interaction) return undefined;
      const { prompt } = interaction;
      const freshSignIn = prompt.reasons.some((r) => r === 'login_prompt' || r === 'max_age');
      const clientId = interaction.params.client_id;
      // The name an administrator registered (never a value of the request): the sign-in page names it.
      const client = typeof clientId === 'string' ? await options.findClient(clientId) : undefined;
      return { freshSignIn, ...(client?.name ? { clientName: client.name } : {}) };
    },
    endOidcSession: (logoutId, req, res) => logout.endOidcSession(logoutId, req, res),
    endOidcSessionsOf: (accountId, which) => endOidcSessionsOfAccount(artefacts, accountId, which),
    revokeAccount: (accountId) => revokeOidcArtefactsOfAccount(artefacts, accountId),

    close() {
      if (purgeTimer) clearInterval(purgeTimer);
      if (keyTimer) clearInterval(keyTimer);
    },
  };
}

const OUTAGE = Symbol('dependency unavailable');

/**
 * oidc-provider answers a thrown error itself (500 `server_error`, after its `server_error` event), out of reach of
 * the gateway's error handler. When the error was the store or Redis being unreachable, the answer becomes a 503 with
 * Retry-After, as everywhere else: the client may try the same call again shortly; the body stays the provider's.
 */
function answerOutagesWithRetry(provider: Provider): void {
  provider.on('server_error', (ctx, error) => {
    if (isDependencyUnavailable(error)) (ctx.state as Record<symbol, unknown>)[OUTAGE] = true;
  });
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status >= 500 && (ctx.state as Record<symbol, unknown>)[OUTAGE]) {
      ctx.status = 503;
      setRetryAfter(ctx.res, { seconds: RETRY_AFTER_SECONDS });
    }
  });
}
