import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { IdentityServices, OidcMount } from '../app.js';
import type { GatewayConfig } from '../config.js';
import { findAccount } from '../identity/claims/accounts.service.js';
import { expiredInteractionRecorder, oidcErrorRecorder } from './error-pages.js';
import { createOidcProvider } from './oidc-provider.js';
import type { OidcDatabase } from './types.js';
import type { Store } from '../store/store.js';
import { exchangeOf } from '../http/browser.js';
import type { Browser } from '../identity/browser.js';

/**
 * The sign-out calls' request and response as Express's: the account API (an Express router) made the browser port
 * the hooks get, so they are Express's objects; oidc-provider reads its own cookies from them.
 */
function expressOf(http: { req: IncomingMessage; res: ServerResponse }): [Request, Response] {
  return [http.req as Request, http.res as Response];
}

/**
 * Wires the OIDC provider of `src/oidc/` to the gateway: our store for accounts and clients, our session for who
 * is signed in, and the Logout call's hooks (confirmation prompt, end of the OIDC session + back-channel logout).
 */
export async function createOidcMount(
  config: GatewayConfig,
  store: Store,
  redis: Redis | undefined,
  logger: Logger,
): Promise<OidcMount & { close(): void }> {
  let services: IdentityServices | undefined;
  const service = await createOidcProvider({
    issuer: config.publicUrl,
    // The provider sees only its own table of the schema.
    db: store.database.db as unknown as Kysely<OidcDatabase>,
    redis,
    secretKey: config.secretKey,
    proxy: config.trustProxy !== false,
    interactionLimit:
      config.authorizationsPerMinute === 0
        ? false
        : { points: config.authorizationsPerMinute, durationSeconds: 60 },
    findAccount: async (accountId, customerId) => (await findAccount(store, accountId, customerId))?.claims(),
    findClient: (clientId) => store.clients.findEnabled(clientId),
    getSignedInAccount: async (req) => (services ? services.getSignedInAccount(req) : undefined),
    logger: logger.child({ module: 'oidc' }),
    recordError: oidcErrorRecorder(() => services?.errorRecords, logger.child({ module: 'oidc' })),
    recordExpiredInteraction: expiredInteractionRecorder(
      () => services?.errorRecords,
      logger.child({ module: 'oidc' }),
    ),
  });
  return {
    mount(app, identity) {
      services = identity;
      service.mount(app);
    },
    async describeLogout(logoutId: string | undefined, browser: Browser) {
      const http = exchangeOf(browser);
      if (!logoutId || !http) return undefined;
      const described = await service.describeLogout(logoutId, ...expressOf(http));
      return described
        ? { showLogoutPrompt: described.showLogoutPrompt, clientName: described.clientName }
        : undefined;
    },
    describeInteraction: (uid: string) => service.describeInteraction(uid),
    async endSession(logoutId: string | undefined, browser: Browser) {
      const http = exchangeOf(browser);
      if (!http) return undefined;
      const ended = await service.endOidcSession(logoutId, ...expressOf(http));
      return { clientName: ended.clientName, postLogoutRedirectUri: ended.postLogoutRedirectUri };
    },
    // After a password change (S15): the same revocation as `admin sessions revoke`, with the provider's own store
    // and keys (back-channel logout to the applications).
    revokeAccount: (accountId: string) => service.revokeAccount(accountId),
    // The security centre's sign-out of other sessions (S27): their applications are told as at Logout.
    endOidcSessionsOf: (accountId, which) => service.endOidcSessionsOf(accountId, which),
    close: () => service.close(),
  };
}
