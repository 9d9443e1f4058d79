import { hmac, randomToken, safeEqual, sha256 } from '../../infra/crypto/tokens.js';
import type { CookieJar } from '../../infra/cookie-jar.js';
import { requestContext } from '../../infra/request-context.js';
import { coarseIp, USER_AGENT_MAX } from '../../infra/sessions/session-index.js';
import type { RememberedBrowserRepository } from '../../store/remembered-browser.repository.js';

/** How long "remember this browser" spares a browser the second factor. */
export const REMEMBER_BROWSER_DAYS = 30;
const MAX_AGE_SECONDS = REMEMBER_BROWSER_DAYS * 24 * 3600;
/** Accounts one browser remembers (a shared computer); the oldest drop out. */
const MAX_ENTRIES = 5;
const ENTRY = /^[0-9]{1,15}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/;

/** The account an entry is checked against; the stamp makes every entry revocable. */
export interface RememberedAccount {
  id: string;
  securityStamp: string;
}

/** Where the records live: the `remembered_browsers` table (store/remembered-browser.repository.ts). */
export type RememberedBrowserStore = Pick<
  RememberedBrowserRepository,
  'add' | 'findLive' | 'markUsed' | 'remove'
>;

/** The key of an entry's record: a hash of its random part, so the table never holds what the cookie holds. */
const entryKey = (random: string) => sha256(random);

/**
 * "Remember this browser" for 30 days (ADR 0008, ADR 0036): after a second factor the browser may get an HttpOnly
 * cookie of entries `expiry.random.HMAC(SECRET_KEY, "two-factor-browser", userId, securityStamp, expiry, random)`,
 * and the server records the entry (under a hash of its random part, with where and when) so the security centre
 * can list and forget it. A later sign-in of that account from that browser skips the 2FA step while the entry's
 * MAC verifies, it has not expired, and its record still exists. An entry names no account, cannot be forged or
 * prolonged without the key, is per user, dies with the user's security stamp (a password change or reset,
 * disabling, `admin sessions revoke`), and dies when forgotten in the security centre.
 */
export class RememberedBrowsers {
  readonly cookieName: string;

  constructor(
    private readonly config: { secretKey: Buffer; secure: boolean },
    private readonly records: RememberedBrowserStore,
    private readonly now: () => number = Date.now,
  ) {
    this.cookieName = `${config.secure ? '__Host-' : ''}idp.2fa`;
  }

  private mac(account: RememberedAccount, expiry: string, random: string): string {
    return hmac(
      this.config.secretKey,
      'two-factor-browser',
      account.id,
      account.securityStamp,
      expiry,
      random,
    );
  }

  private entries(jar: Pick<CookieJar, 'cookie'>): string[] {
    const raw = jar.cookie(this.cookieName);
    return raw
      ? raw
          .split('~')
          .filter((e) => ENTRY.test(e))
          .slice(0, MAX_ENTRIES)
      : [];
  }

  private signedFor(account: RememberedAccount, entry: string): boolean {
    const [expiry = '', random = '', mac = ''] = entry.split('.');
    return safeEqual(mac, this.mac(account, expiry, random));
  }

  /**
   * The record keys of this browser's entries for the account whose MAC verifies and which have not expired by
   * their own expiry (whether a record still exists is the caller's question).
   */
  signedEntryKeys(jar: Pick<CookieJar, 'cookie'>, account: RememberedAccount): string[] {
    return this.entries(jar)
      .filter((e) => this.signedFor(account, e) && Number(e.split('.')[0]) > this.now())
      .map((e) => entryKey(e.split('.')[1] ?? ''));
  }

  /**
   * Whether this browser is remembered for the account's second factor: an entry signed for the account and its
   * current stamp, not expired, whose record was not forgotten. Counts as a use of it (its last-used time moves).
   */
  async recognise(jar: Pick<CookieJar, 'cookie'>, account: RememberedAccount): Promise<boolean> {
    const now = this.now();
    for (const key of this.signedEntryKeys(jar, account)) {
      if (await this.records.findLive(key, account.id, now)) {
        await this.records.markUsed(key, now);
        return true;
      }
    }
    return false;
  }

  /** Remembers this browser for the account's second factor for {@link REMEMBER_BROWSER_DAYS} days. */
  async remember(jar: CookieJar, account: RememberedAccount): Promise<void> {
    const now = this.now();
    const expiresAt = now + MAX_AGE_SECONDS * 1000;
    const expiry = String(expiresAt);
    const random = randomToken(16);
    const held = this.entries(jar);
    // The account's earlier entry here is replaced; past MAX_ENTRIES the oldest drop out. Their records go too, so
    // the list shows only what a browser still holds.
    const others = held.filter((e) => !this.signedFor(account, e));
    const kept = [`${expiry}.${random}.${this.mac(account, expiry, random)}`, ...others].slice(
      0,
      MAX_ENTRIES,
    );
    const dropped = held.filter((e) => !kept.includes(e)).map((e) => entryKey(e.split('.')[1] ?? ''));
    const context = requestContext.getStore();
    await this.records.remove(dropped);
    await this.records.add({
      entryKey: entryKey(random),
      handle: randomToken(16),
      userId: account.id,
      stampHash: sha256(account.securityStamp),
      rememberedAt: now,
      lastUsedAt: null,
      expiresAt,
      ip: coarseIp(context?.ip ?? null),
      userAgent: context?.userAgent ? context.userAgent.slice(0, USER_AGENT_MAX) : null,
    });
    const cookie = [
      `${this.cookieName}=${kept.join('~')}`,
      'Path=/',
      'HttpOnly',
      'SameSite=Lax',
      ...(this.config.secure ? ['Secure'] : []),
      `Max-Age=${MAX_AGE_SECONDS}`,
    ].join('; ');
    jar.setCookie(cookie);
  }
}
