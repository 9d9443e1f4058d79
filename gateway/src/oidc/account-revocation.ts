/**
 * Ends OIDC artefacts of one account from outside the browser that holds them: the one place behind `admin sessions
 * revoke`, a disabled account (S29), a password change (S15) and the security centre's sign-out of other sessions
 * (S27, issue 48). Each OIDC session is ended as the Logout call ends one (ADR 0006): back-channel logout to every
 * client that registered a URI, then its grants with every code, access and refresh token. Works on the store's
 * `oidc_payloads` table or on Redis, with the same adapters the provider uses.
 *
 * Which site session made an OIDC session is recorded beside it (`SiteSessionLink`, keyed by the OIDC session's id,
 * written after every authorization: {@link linkOidcSessionToSiteSession}), so ending one site session ends exactly
 * the OIDC sessions made from it.
 */
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import type { AdapterFactory } from 'oidc-provider';
import { endOidcSessionArtefacts } from './rp-initiated-logout.js';
import { createRedisAdapterFactory } from './redis.adapter.js';
import { createSqlAdapterFactory } from './sql.adapter.js';
import type { OidcDatabase } from './types.js';

/** Where the provider keeps its artefacts: the SQL store, or Redis when REDIS_URL is set. */
export interface OidcArtefactStore {
  db: Kysely<OidcDatabase>;
  redis?: Redis | undefined;
  redisPrefix?: string | undefined;
  /**
   * The provider that signs the back-channel logout tokens (the live one in the gateway; one made for the command in
   * the admin CLI). Without it the sessions are destroyed without telling the clients.
   */
  provider?: (() => Promise<Provider>) | undefined;
}

/** Which OIDC sessions of the account to end, by the site sessions (store keys) they were made from. */
export type OidcSessionSelection =
  | { all: true }
  /** Only those made from these site sessions (`SignOutSession`, `SignOutOtherSessions`' others). */
  | { siteSessions: readonly string[] }
  /** All but those made from these site sessions (`SignOutOtherSessions`: the asking browser keeps its own). */
  | { exceptSiteSessions: readonly string[] };

/** What an OIDC session's link records (kind {@link SITE_SESSION_LINK}). */
interface SiteSessionLinkPayload {
  accountId: string;
  siteSessionKey: string;
}

/** The artefact kind that links an OIDC session (by its id) to the site session it was made from. */
export const SITE_SESSION_LINK = 'SiteSessionLink';

/**
 * Records that the OIDC session `sessionId` was made from (or is used by) the site session `siteSessionKey`, for as
 * long as the OIDC session lives (`expiresIn` seconds). Written again at each authorization, since each may extend
 * the OIDC session's life (ADR 0006: up to the site session's absolute end).
 */
export async function linkOidcSessionToSiteSession(
  adapters: AdapterFactory,
  sessionId: string,
  link: SiteSessionLinkPayload,
  expiresIn: number,
): Promise<void> {
  await adapters(SITE_SESSION_LINK).upsert(sessionId, { ...link }, Math.max(1, expiresIn));
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

function adaptersOf(store: OidcArtefactStore): AdapterFactory {
  return store.redis
    ? createRedisAdapterFactory(store.redis, store.redisPrefix)
    : createSqlAdapterFactory(store.db);
}

async function artefactsOf(store: OidcArtefactStore, accountId: string): Promise<Artefact[]> {
  const artefacts = store.redis
    ? await redisArtefacts(store.redis, store.redisPrefix ?? 'oidc:')
    : await sqlArtefacts(store.db);
  return artefacts.filter((a) => a.accountId === accountId);
}

/** Whether the OIDC session `id` is one `which` selects, by the site session it is linked to. */
async function selected(adapters: AdapterFactory, id: string, which: OidcSessionSelection): Promise<boolean> {
  if ('all' in which) return true;
  const link = (await adapters(SITE_SESSION_LINK).find(id)) as Partial<SiteSessionLinkPayload> | undefined;
  const site = link?.siteSessionKey;
  if ('siteSessions' in which) return site !== undefined && which.siteSessions.includes(site);
  // An OIDC session linked to no site session belongs to none that stays signed in: it ends.
  return site === undefined || !which.exceptSiteSessions.includes(site);
}

/**
 * Ends the account's OIDC sessions that `which` selects: back-channel logout to their clients (when `store.provider`
 * is given), their grants revoked — offline ones too: whoever ends a session from elsewhere ends what it holds — and
 * the sessions destroyed. Answers how many sessions and grants ended.
 */
export async function endOidcSessionsOfAccount(
  store: OidcArtefactStore,
  accountId: string,
  which: OidcSessionSelection,
): Promise<RevokedArtefacts> {
  const adapters = adaptersOf(store);
  const mine = (await artefactsOf(store, accountId)).filter((a) => a.kind === 'Session');
  const chosen: string[] = [];
  for (const artefact of mine) if (await selected(adapters, artefact.id, which)) chosen.push(artefact.id);
  if (chosen.length === 0) return { sessions: 0, grants: 0 };
  const provider = store.provider ? await store.provider() : undefined;
  let grants = 0;
  for (const id of chosen) {
    if (provider) {
      const session = await provider.Session.find(id).catch(() => undefined);
      if (session?.accountId === accountId) {
        grants += Object.values(session.authorizations ?? {}).filter((a) => a.grantId).length;
        await endOidcSessionArtefacts(provider, session, { revokeOffline: true });
      }
    } else {
      const payload = (await adapters('Session').find(id)) as
        { authorizations?: Record<string, { grantId?: string }> } | undefined;
      for (const authorization of Object.values(payload?.authorizations ?? {})) {
        if (!authorization.grantId) continue;
        grants += 1;
        await adapters('Grant').revokeByGrantId(authorization.grantId);
      }
    }
    await adapters('Session').destroy(id);
    await adapters(SITE_SESSION_LINK).destroy(id);
  }
  return { sessions: chosen.length, grants };
}

/**
 * Ends every OIDC artefact of the account at once: every OIDC session as {@link endOidcSessionsOfAccount} ends it
 * (back-channel logout when `store.provider` is given), then every grant of the account, including those no live
 * session holds any more (offline ones), with every code, access and refresh token issued under them.
 */
export async function revokeOidcArtefactsOfAccount(
  store: OidcArtefactStore,
  accountId: string,
): Promise<RevokedArtefacts> {
  const ended = await endOidcSessionsOfAccount(store, accountId, { all: true });
  const grants = adaptersOf(store)('Grant');
  const left = (await artefactsOf(store, accountId)).filter((a) => a.kind === 'Grant');
  for (const artefact of left) await grants.revokeByGrantId(artefact.id);
  // Each grant counted once: those of the ended sessions, and any the sessions no longer named.
  return { sessions: ended.sessions, grants: ended.grants + left.length };
}
