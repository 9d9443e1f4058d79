import type { CookieJar } from '../cookie-jar.js';
import { SignedCookieEntries, type EntryAccount } from '../signed-cookie-entries.js';

/** How long a browser stays a known browser of an account after its last successful sign-in there. */
export const KNOWN_BROWSER_MAX_AGE_SECONDS = 180 * 24 * 3600;

/** The account a known-browser entry is checked against; the stamp makes every entry revocable (S15, S29). */
export type KnownBrowserAccount = EntryAccount;

/**
 * Known browsers (S7): a browser where an account signed in successfully gets an HttpOnly cookie of signed entries
 * `random.HMAC(SECRET_KEY, "known-device", userId, securityStamp, random)` (`infra/signed-cookie-entries.ts`). A later
 * sign-in attempt of that account from that browser is judged by the browser's own throttle counter, not by the
 * counters strangers fill. The entry names no account, cannot be forged without the key, and dies with the user's
 * security stamp (a new password, disabling, or `admin sessions revoke`). The cookie names and HMAC labels keep
 * their first spelling (`idp.device`, `known-device`) so the browsers already known stay known.
 */
export class KnownBrowsers {
  readonly cookieName: string;

  private readonly entries: SignedCookieEntries;

  /**
   * `kind`: `password` (the default) for browsers where the account's password passed, `second-factor` for
   * browsers where a sign-in with the second factor completed (the 2FA counters judge those apart, issue 39). Each
   * kind has its own cookie and its own HMAC label, so one can never stand for the other.
   */
  constructor(
    config: { secretKey: Buffer; secure: boolean },
    kind: 'password' | 'second-factor' = 'password',
  ) {
    this.entries = new SignedCookieEntries(config, {
      name: kind === 'password' ? 'idp.device' : 'idp.2fa-device',
      label: kind === 'password' ? 'known-device' : 'second-factor-device',
      fields: [],
      maxEntries: 5,
      maxAgeSeconds: KNOWN_BROWSER_MAX_AGE_SECONDS,
    });
    this.cookieName = this.entries.cookieName;
  }

  /** The browser's id (its entry's random part) when it is a known browser of the account, else undefined. */
  recognise(jar: Pick<CookieJar, 'cookie'>, account: KnownBrowserAccount): string | undefined {
    return this.entries.signedEntries(jar, account)[0]?.random;
  }

  /** Remembers this browser as a known browser of the account (after a successful sign-in). */
  remember(jar: CookieJar, account: KnownBrowserAccount): void {
    this.entries.rotate(jar, account);
  }
}
