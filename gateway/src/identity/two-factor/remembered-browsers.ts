import { randomToken, sha256 } from '../../infra/crypto/tokens.js';
import type { CookieJar } from '../../infra/cookie-jar.js';
import { SignedCookieEntries, type EntryAccount } from '../../infra/signed-cookie-entries.js';
import { requestContext } from '../../infra/request-context.js';
import { coarseIp, USER_AGENT_MAX } from '../../infra/sessions/session-index.js';
import type { RememberedBrowserRepository } from '../../store/remembered-browser.repository.js';

/** How long "remember this browser" spares a browser the second factor. */
export const REMEMBER_BROWSER_DAYS = 30;
const MAX_AGE_SECONDS = REMEMBER_BROWSER_DAYS * 24 * 3600;
/** The account an entry is checked against; the stamp makes every entry revocable. */
export type RememberedAccount = EntryAccount;

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

  private readonly entries: SignedCookieEntries;

  constructor(
    config: { secretKey: Buffer; secure: boolean },
    private readonly records: RememberedBrowserStore,
    private readonly now: () => number = Date.now,
  ) {
    // Signed, verified and rotated as the known browsers' entries are (infra/signed-cookie-entries.ts); the expiry
    // is a plain field in front of the random part, covered by the MAC.
    this.entries = new SignedCookieEntries(config, {
      name: 'idp.2fa',
      label: 'two-factor-browser',
      fields: ['[0-9]{1,15}'],
      maxEntries: 5,
      maxAgeSeconds: MAX_AGE_SECONDS,
    });
    this.cookieName = this.entries.cookieName;
  }

  /**
   * The record keys of this browser's entries for the account whose MAC verifies and which have not expired by
   * their own expiry (whether a record still exists is the caller's question).
   */
  signedEntryKeys(jar: Pick<CookieJar, 'cookie'>, account: RememberedAccount): string[] {
    return this.entries
      .signedEntries(jar, account)
      .filter((e) => Number(e.fields[0]) > this.now())
      .map((e) => entryKey(e.random));
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
    // The account's earlier entry here is replaced; past the cap the oldest drop out. Their records go too, so the
    // list shows only what a browser still holds.
    const { entry, dropped } = this.entries.rotate(jar, account, [String(expiresAt)]);
    const context = requestContext.getStore();
    await this.records.remove(dropped.map((e) => entryKey(e.random)));
    await this.records.add({
      entryKey: entryKey(entry.random),
      handle: randomToken(16),
      userId: account.id,
      stampHash: sha256(account.securityStamp),
      rememberedAt: now,
      lastUsedAt: null,
      expiresAt,
      ip: coarseIp(context?.ip ?? null),
      userAgent: context?.userAgent ? context.userAgent.slice(0, USER_AGENT_MAX) : null,
    });
  }
}
