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
  /**
   * The value `get` would answer right now when it is loaded and still fresh, without a promise; undefined when
   * `get` would have to load (never loaded, expired, loading, failed). For callers on every request (ADR 0027).
   */
  peek(): { value: T } | undefined;
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
  let entry: { value: Promise<T>; loadedAt: number; settled?: { value: T } } | undefined;
  const fresh = (at: number) => entry && at - entry.loadedAt < ttlMs && at >= entry.loadedAt;
  return {
    get() {
      const at = now();
      if (fresh(at)) return entry!.value;
      const value = load();
      const current: NonNullable<typeof entry> = { value, loadedAt: at };
      entry = current;
      value.then(
        (loaded) => {
          current.settled = { value: loaded };
        },
        () => {
          if (entry === current) entry = undefined;
        },
      );
      return value;
    },
    peek() {
      return fresh(now()) ? entry!.settled : undefined;
    },
    invalidate() {
      entry = undefined;
    },
  };
}
