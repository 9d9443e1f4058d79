import {
  checkKey,
  checkTtl,
  checkValue,
  KeyValueTypeError,
  type CounterWindow,
  type KeyValueStore,
} from './key-value-store.js';

interface Entry {
  value: string;
  expiresAt: number;
}

// Runs a synchronous step as a promise, so bad input rejects like it does on the other backends instead of throwing
// before the caller's await.
function settle<T>(step: () => T): Promise<T> {
  try {
    return Promise.resolve(step());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/** In-process key-value store (tests, single process). Every operation runs synchronously inside, hence atomic. */
export class MemoryKeyValueStore implements KeyValueStore {
  private readonly entries = new Map<string, Entry>();
  private writes = 0;

  constructor(private readonly now: () => number = Date.now) {}

  set(key: string, value: string, ttlMs: number): Promise<void> {
    return settle(() => {
      checkKey(key);
      checkValue(value);
      checkTtl(ttlMs);
      this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
      this.sweepNowAndThen();
    });
  }

  get(key: string): Promise<string | undefined> {
    return settle(() => {
      checkKey(key);
      return this.live(key)?.value;
    });
  }

  take(key: string): Promise<string | undefined> {
    return settle(() => {
      checkKey(key);
      const entry = this.live(key);
      this.entries.delete(key);
      return entry?.value;
    });
  }

  delete(key: string): Promise<void> {
    return settle(() => {
      checkKey(key);
      this.entries.delete(key);
    });
  }

  increment(key: string, ttlMs: number, window: CounterWindow = 'sliding'): Promise<number> {
    return settle(() => {
      checkKey(key);
      checkTtl(ttlMs);
      const entry = this.live(key);
      if (entry && !/^\d+$/.test(entry.value)) throw new KeyValueTypeError(key);
      const count = (entry ? Number(entry.value) : 0) + 1;
      const expiresAt = window === 'fixed' && entry ? entry.expiresAt : this.now() + ttlMs;
      this.entries.set(key, { value: String(count), expiresAt });
      this.sweepNowAndThen();
      return count;
    });
  }

  close(): Promise<void> {
    this.entries.clear();
    return Promise.resolve();
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > this.now()) return entry;
    this.entries.delete(key);
    return undefined;
  }

  // Keys nobody reads again would otherwise stay forever; a sweep every few hundred writes bounds the map.
  private sweepNowAndThen(): void {
    this.writes += 1;
    if (this.writes % 500 !== 0) return;
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}
