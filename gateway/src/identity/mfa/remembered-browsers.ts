import { hmac, randomToken, safeEqual } from '../../infra/crypto/tokens.js';
import type { CookieJar } from '../../infra/cookie-jar.js';

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

/**
 * "Remember this browser" for 30 days (ADR 0008): after a second factor the browser may get an HttpOnly cookie of
 * entries `expiry.random.HMAC(SECRET_KEY, "two-factor-browser", userId, securityStamp, expiry, random)`. A later
 * sign-in of that account from that browser skips the 2FA step. An entry names no account, cannot be forged or
 * prolonged without the key, is per user, and dies with the user's security stamp: a password change or reset,
 * disabling, or `admin sessions revoke`.
 */
export class RememberedBrowsers {
  readonly cookieName: string;

  constructor(
    private readonly config: { secretKey: Buffer; secure: boolean },
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

  private matches(account: RememberedAccount, entry: string): boolean {
    const [expiry = '', random = '', mac = ''] = entry.split('.');
    return safeEqual(mac, this.mac(account, expiry, random)) && Number(expiry) > this.now();
  }

  /** Whether this browser was remembered for the account's second factor (and still may be). */
  recognise(jar: Pick<CookieJar, 'cookie'>, account: RememberedAccount): boolean {
    return this.entries(jar).some((e) => this.matches(account, e));
  }

  /** Remembers this browser for the account's second factor for {@link REMEMBER_BROWSER_DAYS} days. */
  remember(jar: CookieJar, account: RememberedAccount): void {
    const expiry = String(this.now() + MAX_AGE_SECONDS * 1000);
    const random = randomToken(16);
    const others = this.entries(jar).filter((e) => {
      const [other = '', r = '', mac = ''] = e.split('.');
      return !safeEqual(mac, this.mac(account, other, r));
    });
    const value = [`${expiry}.${random}.${this.mac(account, expiry, random)}`, ...others]
      .slice(0, MAX_ENTRIES)
      .join('~');
    const cookie = [
      `${this.cookieName}=${value}`,
      'Path=/',
      'HttpOnly',
      'SameSite=Lax',
      ...(this.config.secure ? ['Secure'] : []),
      `Max-Age=${MAX_AGE_SECONDS}`,
    ].join('; ');
    jar.setCookie(cookie);
  }
}
