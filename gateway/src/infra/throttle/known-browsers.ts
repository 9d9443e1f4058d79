import { hmac, randomToken, safeEqual } from '../crypto/tokens.js';
import type { CookieJar } from '../cookie-jar.js';

/** How long a browser stays a known device of an account after its last successful sign-in there. */
export const KNOWN_DEVICE_MAX_AGE_SECONDS = 180 * 24 * 3600;
/** Accounts one browser remembers (a shared family or office computer); the oldest drop out. */
const MAX_ENTRIES = 5;
const ENTRY = /^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/;

/** The account a known-device entry is checked against; the stamp makes every entry revocable (S15, S29). */
export interface DeviceAccount {
  id: string;
  securityStamp: string;
}

/**
 * Known devices (S7): a browser where an account signed in successfully gets an HttpOnly cookie of entries
 * `random.HMAC(SECRET_KEY, "known-device", userId, securityStamp, random)`. A later sign-in attempt of that
 * account from that browser is judged by the device's own throttle counter, not by the counters strangers fill.
 * The entry names no account, cannot be forged without the key, and dies with the user's security stamp (a new
 * password, disabling, or `admin sessions revoke`).
 */
export class KnownDevices {
  readonly cookieName: string;

  private readonly label: string;

  /**
   * `kind`: `password` (the default) for browsers where the account's password passed, `second-factor` for
   * browsers where a sign-in with the second factor completed (the 2FA counters judge those apart, issue 39). Each
   * kind has its own cookie and its own HMAC label, so one can never stand for the other.
   */
  constructor(
    private readonly config: { secretKey: Buffer; secure: boolean },
    kind: 'password' | 'second-factor' = 'password',
  ) {
    const name = kind === 'password' ? 'idp.device' : 'idp.2fa-device';
    this.cookieName = `${config.secure ? '__Host-' : ''}${name}`;
    this.label = kind === 'password' ? 'known-device' : 'second-factor-device';
  }

  private mac(account: DeviceAccount, random: string): string {
    return hmac(this.config.secretKey, this.label, account.id, account.securityStamp, random);
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

  private matches(account: DeviceAccount, entry: string): boolean {
    const [random = '', mac = ''] = entry.split('.');
    return safeEqual(mac, this.mac(account, random));
  }

  /** The device id when this browser is a known device of the account, else undefined. */
  recognise(jar: Pick<CookieJar, 'cookie'>, account: DeviceAccount): string | undefined {
    const found = this.entries(jar).find((e) => this.matches(account, e));
    return found?.split('.')[0];
  }

  /** Remembers this browser as a known device of the account (after a successful sign-in). */
  remember(jar: CookieJar, account: DeviceAccount): void {
    const random = randomToken(16);
    const others = this.entries(jar).filter((e) => !this.matches(account, e));
    const value = [`${random}.${this.mac(account, random)}`, ...others].slice(0, MAX_ENTRIES).join('~');
    jar.setCookie(
      [
        `${this.cookieName}=${value}`,
        'Path=/',
        'HttpOnly',
        'SameSite=Lax',
        ...(this.config.secure ? ['Secure'] : []),
        `Max-Age=${KNOWN_DEVICE_MAX_AGE_SECONDS}`,
      ].join('; '),
    );
  }
}
