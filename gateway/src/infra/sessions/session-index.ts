import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { randomToken } from '../crypto/tokens.js';
import { requestContext } from '../request-context.js';
import type { AccountSession } from '../../store/account-session.repository.js';
import type { SessionRecord, SessionStore, StoredSession } from './session-store.js';

/** Where the index lives: the `account_sessions` table (store/account-session.repository.ts). */
export interface AccountSessionIndexStore {
  add(session: AccountSession): Promise<void>;
  touch(sessionKey: string, lastSeenAt: number, expiresAt: number): Promise<void>;
  find(sessionKey: string): Promise<AccountSession | undefined>;
  listForUser(userId: string, now: number): Promise<AccountSession[]>;
  remove(sessionKey: string): Promise<void>;
}

/** Longest user agent kept (a forged header must not fill a row). */
export const USER_AGENT_MAX = 512;

/**
 * An address as a person reads it: an IPv4 address that a dual-stack socket reports IPv4-mapped (`::ffff:127.0.0.1`)
 * is shown as the IPv4 address it is (`127.0.0.1`); anything else as given.
 */
export function readableIp(ip: string | null): string | null {
  if (!ip) return ip;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  return mapped ? mapped[1]! : ip;
}

/**
 * An address made coarse, for records kept for weeks (remembered browsers, ADR 0036): the IPv4 /24 or IPv6 /48
 * network it is in (`203.0.113.0/24`, `2001:db8:1::/48`): enough for a person to tell home from elsewhere, not
 * the host. An IPv4-mapped address counts as the IPv4 address it is, the loopback `::1` stays itself; anything
 * unreadable gives null.
 */
export function coarseIp(ip: string | null): string | null {
  const readable = readableIp(ip);
  // Node's strict check first: ipaddr.js would also read legacy forms such as `127.1` or `0x7f000001`.
  const bare = readable?.replace(/%.*$/, '');
  if (!bare || isIP(bare) === 0) return null;
  // `process` reads an IPv4-mapped address in any spelling (`::ffff:7f00:1` too) as the IPv4 address it is.
  const address = ipaddr.process(bare);
  if (address.kind() === 'ipv4')
    return `${ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/24`).toString()}/24`;
  // The loopback address names no one's network: shown as it is.
  if (address.range() === 'loopback') return '::1';
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/48`).toString()}/48`;
}

/**
 * Which account each signed-in session belongs to, kept beside whatever store holds the sessions (SQL or Redis:
 * ADR 0036). {@link SessionIndex.wrap} decorates the session store, so every signed-in record written through it —
 * a sign-in, a new id (S24), activity — is indexed, and every end removes it, with no change to the sign-in code.
 * Ending a listed session goes through the same store, so it is ended exactly as sign-out ends one (S27).
 */
export class SessionIndex {
  private store: SessionStore | undefined;

  constructor(
    private readonly index: AccountSessionIndexStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** The session store with the index kept up to date; use it in place of `store`. */
  wrap(store: SessionStore): SessionStore {
    this.store = store;
    const indexRecord = async (key: string, record: SessionRecord, storeUntil: number, fresh: boolean) => {
      const account = record.data.account;
      if (!account) return;
      if (!fresh && (await this.index.find(key))) {
        await this.index.touch(key, record.lastSeenAt, storeUntil);
        return;
      }
      const context = requestContext.getStore();
      await this.index.add({
        sessionKey: key,
        handle: randomToken(16),
        userId: account.userId,
        createdAt: record.createdAt,
        lastSeenAt: record.lastSeenAt,
        expiresAt: storeUntil,
        ip: readableIp(context?.ip ?? null),
        userAgent: context?.userAgent ? context.userAgent.slice(0, USER_AGENT_MAX) : null,
      });
    };
    return {
      get: (key) => store.get(key),
      create: async (key, record, storeUntil) => {
        const created = await store.create(key, record, storeUntil);
        if (created) await indexRecord(key, record, storeUntil, true);
        return created;
      },
      update: async (key, record, storeUntil) => {
        const updated = await store.update(key, record, storeUntil);
        if (updated) await indexRecord(key, record, storeUntil, false);
        return updated;
      },
      destroy: async (key, endedUntil) => {
        await store.destroy(key, endedUntil);
        await this.index.remove(key);
      },
      replace: async (oldKey, endedUntil, newKey, record, storeUntil) => {
        const replaced = await store.replace(oldKey, endedUntil, newKey, record, storeUntil);
        await this.index.remove(oldKey);
        if (replaced) await indexRecord(newKey, record, storeUntil, true);
        return replaced;
      },
      ping: () => store.ping(),
      close: () => store.close(),
    };
  }

  /**
   * The account's live sessions: indexed, still stored, and still signed in as this account with its current
   * security stamp (a password change or `admin sessions revoke` ended the others even while their records last).
   */
  async sessionsOf(userId: string, securityStamp: string): Promise<AccountSession[]> {
    const listed = await this.index.listForUser(userId, this.now());
    const live: AccountSession[] = [];
    for (const entry of listed) {
      const stored: StoredSession | undefined = await this.store?.get(entry.sessionKey);
      const account = stored?.kind === 'live' ? stored.record.data.account : undefined;
      if (account?.userId === userId && account.securityStamp === securityStamp) live.push(entry);
      else await this.index.remove(entry.sessionKey);
    }
    return live;
  }

  /** Ends one stored session by its key: its cookie loads as expired from now on (S27). */
  async end(sessionKey: string): Promise<void> {
    if (!this.store) throw new Error('SessionIndex.wrap was not called');
    await this.store.destroy(sessionKey);
    await this.index.remove(sessionKey);
  }
}
