/**
 * Short-lived flow state shared by every gateway replica: PIN and code hashes, one-time links, attempt counters.
 * Entries expire after their TTL and an expired entry is never returned.
 */
export interface KeyValueStore {
  /** Stores `value` under `key` for `ttlMs` milliseconds, replacing what was there. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  get(key: string): Promise<string | undefined>;
  /** Atomic get + delete: of N concurrent takes of one key exactly one gets the value (one-use codes). */
  take(key: string): Promise<string | undefined>;
  delete(key: string): Promise<void>;
  /**
   * Adds one to the counter at `key` (a missing or expired key counts from 0) and returns the new count. With
   * `sliding` (the default) every increment restarts the key's lifetime at `ttlMs`, so a counter lives while
   * attempts keep coming; with `fixed` the lifetime starts at the first count and later ones never lengthen it (a
   * throttle window that refused attempts cannot extend: issue 39).
   */
  increment(key: string, ttlMs: number, window?: CounterWindow): Promise<number>;
  close(): Promise<void>;
}

/** How a counter's lifetime runs: restarted by every count, or fixed from the first. */
export type CounterWindow = 'sliding' | 'fixed';

/** Raised for a value at a counter key that is not a counter (a programming mistake, not user input). */
export class KeyValueTypeError extends Error {
  constructor(key: string) {
    super(`key-value entry ${JSON.stringify(key)} does not hold a counter`);
    this.name = 'KeyValueTypeError';
  }
}

const MAX_KEY_LENGTH = 512;
// About 24 days: the longest TTL setTimeout-style arithmetic and every backend handle exactly; flow state is minutes.
const MAX_TTL_MS = 2 ** 31 - 1;

/** Throws a TypeError for an empty or overlong key. */
export function checkKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH)
    throw new TypeError(`key-value key must be 1 to ${MAX_KEY_LENGTH} characters`);
}

/** Throws a RangeError unless `ttlMs` is a whole number of milliseconds from 1 to about 24 days. */
export function checkTtl(ttlMs: number): void {
  if (!Number.isInteger(ttlMs) || ttlMs < 1 || ttlMs > MAX_TTL_MS)
    throw new RangeError(`key-value TTL must be a whole number of milliseconds from 1 to ${MAX_TTL_MS}`);
}

/** Throws a TypeError unless `value` is a string. */
export function checkValue(value: string): void {
  if (typeof value !== 'string') throw new TypeError('key-value value must be a string');
}
