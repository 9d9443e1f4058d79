/** How long an in-process copy of rarely changing configuration (partners, registered URLs) is used. */
export const CONFIG_CACHE_TTL_MS = 5_000;

/** Options of {@link cachedValue}. */
export interface CacheOptions {
  /** How long a loaded value is served; changes made elsewhere (admin CLI, another replica) show after it. */
  ttlMs?: number;
  /** The time source (tests move it by hand). */
  now?: () => number;
}

/** One cached value with {@link CachedValue.invalidate}. */
export interface CachedValue<T> {
  get(): Promise<T>;
  /** Drops the copy: the next `get` loads again (a write in this process). */
  invalidate(): void;
}

/**
 * A value loaded at most once per `ttlMs`; callers arriving while it loads share that one load. A failed load is
 * not kept, so the next call tries again.
 */
export function cachedValue<T>(load: () => Promise<T>, options: CacheOptions = {}): CachedValue<T> {
  const ttlMs = options.ttlMs ?? CONFIG_CACHE_TTL_MS;
  const now = options.now ?? Date.now;
  let entry: { value: Promise<T>; loadedAt: number } | undefined;
  return {
    get() {
      const at = now();
      if (entry && at - entry.loadedAt < ttlMs && at >= entry.loadedAt) return entry.value;
      const value = load();
      const current = { value, loadedAt: at };
      entry = current;
      value.catch(() => {
        if (entry === current) entry = undefined;
      });
      return value;
    },
    invalidate() {
      entry = undefined;
    },
  };
}
