import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import { findAccount } from '../identity/claims/accounts.service.js';
import type { OidcArtefactStore } from '../oidc/account-revocation.js';
import { createOidcProvider, type OidcService } from '../oidc/oidc-provider.js';
import type { OidcDatabase } from '../oidc/types.js';
import type { Store } from '../store/store.js';

/** Where a command finds the OIDC artefacts, and how it tells the applications; `close` after the command. */
export interface CommandOidc {
  artefacts: OidcArtefactStore;
  close(): void;
}

/**
 * The OIDC artefacts for an admin command, with a provider made on first use (over the same store, keys and
 * issuer as the server's) that signs the back-channel logout tokens the ended sessions' applications receive
 * (ADR 0006): `sessions revoke` and `users disable` tell the applications exactly as Logout does.
 */
export function commandOidc(
  store: Store,
  options: {
    redis?: Redis | undefined;
    redisPrefix?: string | undefined;
    /** PUBLIC_URL: the issuer of the logout tokens. */
    issuer: string;
    /** SECRET_KEY (cookie keys only; the command sets no cookie): random when not given. */
    secretKey?: Buffer | undefined;
  },
): CommandOidc {
  const db = store.database.db as unknown as Kysely<OidcDatabase>;
  let service: Promise<OidcService> | undefined;
  const provider = async (): Promise<Provider> => {
    service ??= createOidcProvider({
      issuer: options.issuer,
      db,
      redis: options.redis,
      redisPrefix: options.redisPrefix,
      secretKey: options.secretKey ?? randomBytes(32),
      findAccount: async (accountId, customerId) =>
        (await findAccount(store, accountId, customerId))?.claims(),
      findClient: (clientId) => store.clients.findEnabled(clientId),
      getSignedInAccount: () => undefined,
      purgeIntervalMs: 0,
      keyPollIntervalMs: 0,
      interactionLimit: false,
    });
    return (await service).provider;
  };
  return {
    artefacts: { db, redis: options.redis, redisPrefix: options.redisPrefix, provider },
    close: () => {
      void service?.then((made) => made.close()).catch(() => undefined);
    },
  };
}
