import { randomInt } from 'node:crypto';
import { PIN_ASKED_DIGITS, PIN_LENGTH } from 'shared-contracts';
import type { Clock } from '../../infra/clock.js';
import { randomToken, safeEqual } from '../../infra/crypto/tokens.js';
import type { KeyValueStore } from '../../infra/kv/key-value-store.js';
import type { SecretBox } from '../../store/secret-box.js';

/** A mailed PIN or a texted code lives this long, and is used once (S18). */
export const DELIVERED_CODE_TTL_MS = 10 * 60_000;
/** The first wait before another SMS may be asked for; it doubles with every resend, up to {@link SMS_MAX_WAIT_S}. */
export const SMS_FIRST_WAIT_S = 30;
export const SMS_MAX_WAIT_S = 600;
/**
 * Wrong answers one mailed PIN or texted code survives (issue 39): the third kills it, and only a new code (a new
 * mail or text, each limited per hour) can be tried next. A PIN's reshuffle counts as a wrong answer.
 */
export const DELIVERED_CODE_MAX_WRONG = 3;

/**
 * A code sent to the user, kept sealed in the key-value store under the pending sign-in (or set-up) it belongs to:
 * a code of another sign-in is simply not there (S18).
 */
export interface DeliveredCode {
  userId: string;
  code: string;
  /** SMS: where it went (the set-up's phone, or the verified one). */
  phone?: string;
  /** PIN: the 1-based positions asked last (PinReference). */
  positions?: number[];
  /** PIN: the positions were shown once (the next PinReference is a reshuffle, which costs an attempt). */
  shown?: boolean;
  /** A random id of this code: its wrong-answer counter is kept under it, so a new code starts from none. */
  nonce?: string;
  /** SMS: how many codes went out under this key, and when the next may. */
  sends?: number;
  nextSendAt?: number;
  expiresAt: number;
}

/** `n` random decimal digits from the CSPRNG (each digit uniform). */
export function randomDigits(n: number): string {
  let out = '';
  for (let i = 0; i < n; i += 1) out += String(randomInt(10));
  return out;
}

/**
 * `count` distinct 1-based positions of a PIN of `length` digits, in ascending order, not the same set as
 * `previous` (a reshuffle asks for other digits).
 */
export function choosePositions(
  length = PIN_LENGTH,
  count = PIN_ASKED_DIGITS,
  previous?: readonly number[],
): number[] {
  const before = previous ? [...previous].sort((a, b) => a - b).join(',') : undefined;
  for (;;) {
    const pool = Array.from({ length }, (_, i) => i + 1);
    const picked: number[] = [];
    for (let i = 0; i < count; i += 1) picked.push(pool.splice(randomInt(pool.length), 1)[0]!);
    picked.sort((a, b) => a - b);
    if (picked.join(',') !== before) return picked;
  }
}

/** The digits of `pin` at the 1-based `positions`. */
export function digitsAt(pin: string, positions: readonly number[]): string {
  return positions.map((p) => pin[p - 1] ?? '').join('');
}

/** `+447700900123` → `•••• 0123`. */
export function maskPhone(phone: string): string {
  return `•••• ${phone.slice(-4)}`;
}

/** `jane.doe@example.com` → `j•••@example.com`. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}

/** Where the wrong answers to one code are counted. */
function wrongKey(key: string, record: DeliveredCode): string {
  return `${key}:wrong:${record.nonce ?? 'legacy'}`;
}

/** Seals, stores, reads and uses up delivered codes. */
export function deliveredCodes(kv: KeyValueStore, secrets: SecretBox, clock: Clock) {
  async function read(key: string): Promise<DeliveredCode | undefined> {
    const sealed = await kv.get(key);
    return sealed ? open(sealed) : undefined;
  }

  function open(sealed: string): DeliveredCode | undefined {
    try {
      return JSON.parse(secrets.decrypt(sealed)) as DeliveredCode;
    } catch {
      return undefined;
    }
  }

  /** Keeps `record` until its own expiry (a rewrite — new positions — does not lengthen its life). */
  async function write(key: string, record: DeliveredCode): Promise<boolean> {
    const ttl = record.expiresAt - clock.now();
    if (ttl < 1) return false;
    await kv.set(key, secrets.encrypt(JSON.stringify(record)), Math.ceil(ttl));
    return true;
  }

  /**
   * Counts one wrong answer (or a PIN reshuffle) against the code under `key`; the {@link DELIVERED_CODE_MAX_WRONG}th
   * kills it. True while the code is still alive. Atomic: N parallel wrong answers count N.
   */
  async function countWrong(key: string, record: DeliveredCode): Promise<boolean> {
    const ttl = record.expiresAt - clock.now();
    if (ttl < 1) return false;
    const wrong = await kv.increment(wrongKey(key, record), Math.ceil(ttl), 'fixed');
    if (wrong < DELIVERED_CODE_MAX_WRONG) return true;
    // Dead: only this very code (a resend may already have put a new one there, which lives on).
    const now = await read(key);
    if (now && now.nonce === record.nonce) await kv.delete(key);
    return false;
  }

  return {
    read,
    write,
    delete: (key: string) => kv.delete(key),

    /** A new record for `userId` with a fresh code of `digits` digits, living {@link DELIVERED_CODE_TTL_MS}. */
    fresh(userId: string, digits: number, extra: Partial<DeliveredCode> = {}): DeliveredCode {
      return {
        ...extra,
        userId,
        code: randomDigits(digits),
        nonce: randomToken(12),
        expiresAt: clock.now() + DELIVERED_CODE_TTL_MS,
      };
    },

    countWrong,

    /**
     * Checks `typed` against what the record under `key` expects (compared in constant time) and, when it matches,
     * uses the record up: of concurrent right answers exactly one succeeds, and a used code is gone (S18).
     * Returns the used record, or undefined.
     */
    async use(
      key: string,
      userId: string,
      typed: string,
      expected: (record: DeliveredCode) => string | undefined,
    ): Promise<DeliveredCode | undefined> {
      const record = await read(key);
      if (!record || record.userId !== userId || record.expiresAt <= clock.now()) return undefined;
      // A code that already took its wrong answers (counted by parallel requests) is dead even if still stored.
      if (Number((await kv.get(wrongKey(key, record))) ?? 0) >= DELIVERED_CODE_MAX_WRONG) return undefined;
      const want = expected(record);
      if (want === undefined || !safeEqual(want, typed)) {
        await countWrong(key, record);
        return undefined;
      }
      const taken = await kv.take(key);
      const used = taken ? open(taken) : undefined;
      // A resend may have replaced the code between the read and the take: only the code checked counts.
      if (!used || used.userId !== userId || !safeEqual(used.code, record.code)) return undefined;
      return used;
    },

    /** The wait before the next SMS after `sends` of them: 30 s, 60 s, 120 s … up to 10 minutes. */
    waitAfter(sends: number): number {
      return Math.min(SMS_FIRST_WAIT_S * 2 ** Math.max(0, sends - 1), SMS_MAX_WAIT_S);
    },
  };
}
