/**
 * Ends every OIDC artefact of one account at once (admin `sessions revoke --user`; SECURITY-CHECKLIST S29 is the
 * same need for disabled accounts): its OIDC sessions (no more single sign-on from the provider's cookie) and its
 * grants with every code, access and refresh token issued under them. Works on the store's `oidc_payloads` table or
 * on Redis, with the same adapters the provider uses.
 */
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { createRedisAdapterFactory } from './redis.adapter.js';
import { createSqlAdapterFactory } from './sql.adapter.js';
import type { OidcDatabase } from './types.js';

/** Where the provider keeps its artefacts: the SQL store, or Redis when REDIS_URL is set. */
export interface OidcArtefactStore {
  db: Kysely<OidcDatabase>;
  redis?: Redis | undefined;
  redisPrefix?: string | undefined;
}

/** How many artefacts were ended. */
export interface RevokedArtefacts {
  sessions: number;
  grants: number;
}

interface Artefact {
  kind: 'Session' | 'Grant';
  id: string;
  accountId: unknown;
}

async function sqlArtefacts(db: Kysely<OidcDatabase>): Promise<Artefact[]> {
  const rows = await db
    .selectFrom('oidc_payloads')
    .select(['kind', 'id', 'payload'])
    .where('kind', 'in', ['Session', 'Grant'])
    .execute();
  return rows.map((row) => ({
    kind: row.kind as Artefact['kind'],
    id: row.id,
    accountId: (JSON.parse(row.payload) as { accountId?: unknown }).accountId,
  }));
}

async function redisArtefacts(redis: Redis, prefix: string): Promise<Artefact[]> {
  const found: Artefact[] = [];
  for (const kind of ['Session', 'Grant'] as const) {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}${kind}:*`, 'COUNT', 500);
      cursor = next;
      const payloadKeys = keys.filter((k) => !k.endsWith(':consumed'));
      if (payloadKeys.length === 0) continue;
      const values = await redis.mget(...payloadKeys);
      payloadKeys.forEach((key, i) => {
        const value = values[i];
        if (!value) return;
        found.push({
          kind,
          id: key.slice(`${prefix}${kind}:`.length),
          accountId: (JSON.parse(value) as { accountId?: unknown }).accountId,
        });
      });
    } while (cursor !== '0');
  }
  return found;
}

/** Destroys the account's OIDC sessions and revokes its grants (codes, access and refresh tokens die with them). */
export async function revokeOidcArtefactsOfAccount(
  store: OidcArtefactStore,
  accountId: string,
): Promise<RevokedArtefacts> {
  const factory = store.redis
    ? createRedisAdapterFactory(store.redis, store.redisPrefix)
    : createSqlAdapterFactory(store.db);
  const artefacts = store.redis
    ? await redisArtefacts(store.redis, store.redisPrefix ?? 'oidc:')
    : await sqlArtefacts(store.db);
  const mine = artefacts.filter((a) => a.accountId === accountId);
  const sessions = factory('Session');
  const grants = factory('Grant');
  for (const artefact of mine) {
    if (artefact.kind === 'Session') await sessions.destroy(artefact.id);
    else await grants.revokeByGrantId(artefact.id);
  }
  return {
    sessions: mine.filter((a) => a.kind === 'Session').length,
    grants: mine.filter((a) => a.kind === 'Grant').length,
  };
}
