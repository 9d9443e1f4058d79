import { hmac, randomToken, safeEqual } from './crypto/tokens.js';
import { cookieName, setCookieValue, type CookieSite } from './cookie-attributes.js';
import type { CookieJar } from './cookie-jar.js';

/** The account an entry is signed for; the stamp makes every entry revocable (S15, S29). */
export interface EntryAccount {
  id: string;
  securityStamp: string;
}

/** What one kind of signed-entry cookie is. */
export interface SignedEntriesKind {
  /** The cookie's name before the `__Host-` prefix (`idp.device`, `idp.2fa`). */
  name: string;
  /** The HMAC's label: one kind's entry can never stand for another's. */
  label: string;
  /** Patterns of the plain fields an entry carries before its random part (the remembered browsers' expiry). */
  fields: readonly string[];
  /** Accounts one browser keeps (a shared family or office computer); the oldest drop out. */
  maxEntries: number;
  /** The cookie's lifetime. */
  maxAgeSeconds: number;
}

/** One entry of the cookie: its plain fields, its random part (the entry's id) and the whole text. */
export interface SignedEntry {
  fields: string[];
  random: string;
  text: string;
}

/**
 * The signed-entry cookies (issue 50: one place): a browser keeps, per account, an entry
 * `field….random.HMAC(SECRET_KEY, label, userId, securityStamp, field…, random)`, entries joined by `~`, newest first.
 * An entry names no account, cannot be forged or changed without the key, and dies with the account's security
 * stamp. Known browsers (`infra/throttle/known-browsers.ts`) and remembered browsers
 * (`identity/two-factor/remembered-browsers.ts`) are two kinds of it: each signs, verifies and rotates here.
 */
export class SignedCookieEntries {
  readonly cookieName: string;

  private readonly pattern: RegExp;

  constructor(
    private readonly site: CookieSite & { secretKey: Buffer },
    private readonly kind: SignedEntriesKind,
  ) {
    this.cookieName = cookieName(site, kind.name);
    this.pattern = new RegExp(
      `^${[...kind.fields, '[A-Za-z0-9_-]{22}', '[A-Za-z0-9_-]{43}'].map((p) => `(${p})`).join('\\.')}$`,
    );
  }

  private mac(account: EntryAccount, fields: readonly string[], random: string): string {
    return hmac(this.site.secretKey, this.kind.label, account.id, account.securityStamp, ...fields, random);
  }

  /** The well-formed entries this browser sent, at most `maxEntries`. */
  entries(jar: Pick<CookieJar, 'cookie'>): SignedEntry[] {
    const raw = jar.cookie(this.cookieName);
    if (!raw) return [];
    const entries: SignedEntry[] = [];
    for (const text of raw.split('~')) {
      const parts = this.pattern.exec(text)?.slice(1);
      if (!parts) continue;
      entries.push({ fields: parts.slice(0, -2), random: parts.at(-2)!, text });
      if (entries.length === this.kind.maxEntries) break;
    }
    return entries;
  }

  /** Whether `entry` is signed for the account and its current stamp. */
  signedFor(account: EntryAccount, entry: SignedEntry): boolean {
    const mac = entry.text.slice(entry.text.lastIndexOf('.') + 1);
    return safeEqual(mac, this.mac(account, entry.fields, entry.random));
  }

  /** The entries of this browser signed for the account. */
  signedEntries(jar: Pick<CookieJar, 'cookie'>, account: EntryAccount): SignedEntry[] {
    return this.entries(jar).filter((entry) => this.signedFor(account, entry));
  }

  /**
   * Rotates the account's entry: a new one (with `fields`) goes first, the account's earlier one goes, past
   * `maxEntries` the oldest drop out; the cookie is written. Answers the new entry and the entries that went.
   */
  rotate(
    jar: CookieJar,
    account: EntryAccount,
    fields: readonly string[] = [],
  ): { entry: SignedEntry; dropped: SignedEntry[] } {
    const random = randomToken(16);
    const text = [...fields, random, this.mac(account, fields, random)].join('.');
    const entry: SignedEntry = { fields: [...fields], random, text };
    const held = this.entries(jar);
    const kept = [entry, ...held.filter((e) => !this.signedFor(account, e))].slice(0, this.kind.maxEntries);
    jar.setCookie(
      setCookieValue(this.site, this.cookieName, kept.map((e) => e.text).join('~'), {
        httpOnly: true,
        maxAgeSeconds: this.kind.maxAgeSeconds,
      }),
    );
    return { entry, dropped: held.filter((e) => !kept.includes(e)) };
  }
}
