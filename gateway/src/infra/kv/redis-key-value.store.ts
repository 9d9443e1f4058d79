import type { Redis } from 'ioredis';
import {
  checkKey,
  checkTtl,
  checkValue,
  KeyValueTypeError,
  type CounterWindow,
  type KeyValueStore,
} from './key-value-store.js';

/**
 * Key-value store in Redis (REDIS_URL): every replica sees the same state and Redis expires the keys itself.
 * `take` is GETDEL (Redis ≥ 6.2), atomic by construction.
 */
export class RedisKeyValueStore implements KeyValueStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'idp:kv:',
  ) {}

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    checkKey(key);
    checkValue(value);
    checkTtl(ttlMs);
    await this.redis.set(this.prefix + key, value, 'PX', ttlMs);
  }

  async get(key: string): Promise<string | undefined> {
    checkKey(key);
    return (await this.redis.get(this.prefix + key)) ?? undefined;
  }

  async take(key: string): Promise<string | undefined> {
    checkKey(key);
    return (await this.redis.getdel(this.prefix + key)) ?? undefined;
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    await this.redis.del(this.prefix + key);
  }

  async increment(key: string, ttlMs: number, window: CounterWindow = 'sliding'): Promise<number> {
    checkKey(key);
    checkTtl(ttlMs);
    const full = this.prefix + key;
    // INCR and PEXPIRE in one MULTI: no other client sees a counter without its expiry. A fixed window sets the
    // expiry only where there is none yet (NX, Redis ≥ 7): the key INCR just created.
    const multi = this.redis.multi().incr(full);
    const results = await (
      window === 'fixed' ? multi.pexpire(full, ttlMs, 'NX') : multi.pexpire(full, ttlMs)
    ).exec();
    if (!results) throw new Error('Redis discarded the increment transaction');
    const [incr] = results;
    if (!incr || incr[0]) {
      if (incr?.[0] && /not an integer/i.test(incr[0].message)) throw new KeyValueTypeError(key);
      throw incr?.[0] ?? new Error('Redis returned no increment result');
    }
    return Number(incr[1]);
  }

  close(): Promise<void> {
    // The Redis connection is shared (sessions, throttle, OIDC) and closed by its owner.
    return Promise.resolve();
  }
}
