/**
 * The key-value store for short-lived flow state, on every backend: memory, SQL (SQLite, and PostgreSQL when
 * TEST_DATABASE_URL is set) and Redis (TEST_REDIS_URL). One-use codes depend on `take` handing a value out once,
 * attempt limits on `increment` never losing a count, and every flow on expired entries staying dead.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { openTestBackends, type TestBackends } from '../../testing/backends.js';
import { KeyValueTypeError, type KeyValueStore } from './key-value-store.js';
import { MemoryKeyValueStore } from './memory-key-value.store.js';
import { RedisKeyValueStore } from './redis-key-value.store.js';
import { SqlKeyValueStore } from './sql-key-value.store.js';

interface Subject {
  kv: KeyValueStore;
  /** Moves the store's time; absent on Redis, whose server keeps its own clock. */
  clock: ManualClock | undefined;
  /** Rows in the `kv` table, dead or alive (SQL backends). */
  rowCount?: () => Promise<number>;
  close(): Promise<void>;
}

type Variant = 'memory' | 'sqlite' | 'postgres' | 'redis';

const VARIANTS: { name: Variant; skip: string | false }[] = [
  { name: 'memory', skip: false },
  { name: 'sqlite', skip: false },
  {
    name: 'postgres',
    skip: process.env.TEST_DATABASE_URL
      ? false
      : 'TEST_DATABASE_URL is not set (.ci/run sets it when PostgreSQL answers)',
  },
  {
    name: 'redis',
    skip: process.env.TEST_REDIS_URL
      ? false
      : 'TEST_REDIS_URL is not set (.ci/run sets it when Redis answers)',
  },
];

async function open(variant: Variant, purgeEvery?: number): Promise<Subject> {
  const clock = new ManualClock(Date.UTC(2025, 0, 1));
  const now = () => clock.now();
  if (variant === 'memory') {
    const kv = new MemoryKeyValueStore(now);
    return { kv, clock, close: () => kv.close() };
  }
  let backends: TestBackends;
  if (variant === 'redis') {
    backends = await openTestBackends({ sql: 'sqlite', redis: true, tempPrefix: 'kv-test-' });
    const kv = new RedisKeyValueStore(backends.redis!, `${backends.keyPrefix}kv:`);
    return { kv, clock: undefined, close: () => backends.close() };
  }
  backends = await openTestBackends({ sql: variant, tempPrefix: 'kv-test-', now });
  const { db, dialect } = backends.store.database;
  const kv = new SqlKeyValueStore(db, dialect, { now, ...(purgeEvery ? { purgeEvery } : {}) });
  return {
    kv,
    clock,
    rowCount: async () => {
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from kv`.execute(db);
      return Number(rows[0]?.n);
    },
    close: async () => {
      await kv.close();
      await backends.close();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const { name, skip } of VARIANTS) {
  describe.skipIf(skip)(`key-value store on ${name}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    let s: Subject;
    beforeEach(async () => {
      s = await open(name);
    });
    afterEach(async () => {
      await s.close();
    });

    it('keeps a value until it is replaced or deleted', async () => {
      expect(await s.kv.get('pin:1')).toBeUndefined();
      await s.kv.set('pin:1', 'first', 60_000);
      expect(await s.kv.get('pin:1')).toBe('first');
      expect(await s.kv.get('pin:1')).toBe('first');
      await s.kv.set('pin:1', 'second', 60_000);
      expect(await s.kv.get('pin:1')).toBe('second');
      await s.kv.delete('pin:1');
      expect(await s.kv.get('pin:1')).toBeUndefined();
      await s.kv.delete('pin:1');
    });

    it('take hands a value out once', async () => {
      await s.kv.set('code:a', 'value-a', 60_000);
      await s.kv.set('code:b', 'value-b', 60_000);
      expect(await s.kv.take('code:a')).toBe('value-a');
      expect(await s.kv.take('code:a')).toBeUndefined();
      expect(await s.kv.get('code:a')).toBeUndefined();
      expect(await s.kv.get('code:b')).toBe('value-b');
    });

    it('of 50 concurrent takes of one key exactly one gets the value', async () => {
      for (let round = 0; round < 3; round += 1) {
        await s.kv.set('link', `token-${round}`, 60_000);
        const results = await Promise.all(Array.from({ length: 50 }, () => s.kv.take('link')));
        expect(results.filter((r) => r !== undefined)).toEqual([`token-${round}`]);
      }
    });

    it('50 concurrent increments count 1 to 50 without losing one', async () => {
      const counts = await Promise.all(Array.from({ length: 50 }, () => s.kv.increment('attempts', 60_000)));
      expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect(await s.kv.get('attempts')).toBe('50');
      expect(await s.kv.increment('other', 60_000)).toBe(1);
    });

    it('refuses bad input with a clear error', async () => {
      await expect(s.kv.set('', 'x', 1000)).rejects.toThrow(TypeError);
      await expect(s.kv.set('k'.repeat(513), 'x', 1000)).rejects.toThrow(/1 to 512 characters/);
      await expect(s.kv.set('k', 'x', 0)).rejects.toThrow(RangeError);
      await expect(s.kv.set('k', 'x', 1.5)).rejects.toThrow(/whole number of milliseconds/);
      await expect(s.kv.increment('k', -1)).rejects.toThrow(RangeError);
      await expect(s.kv.set('k', undefined as unknown as string, 1000)).rejects.toThrow(/must be a string/);
      await expect(s.kv.get('')).rejects.toThrow(TypeError);
      await expect(s.kv.take('')).rejects.toThrow(TypeError);
    });

    it('increment on a value that is not a counter fails and leaves the value alone', async () => {
      await s.kv.set('state', 'not-a-number', 60_000);
      await expect(s.kv.increment('state', 60_000)).rejects.toThrow(KeyValueTypeError);
      expect(await s.kv.get('state')).toBe('not-a-number');
    });

    if (name === 'redis') {
      it('expired entries are gone (Redis expires them on its own clock)', async () => {
        await s.kv.set('short', 'v', 100);
        await s.kv.increment('short-count', 100);
        await s.kv.set('long', 'v', 60_000);
        await sleep(300);
        expect(await s.kv.get('short')).toBeUndefined();
        expect(await s.kv.take('short')).toBeUndefined();
        expect(await s.kv.increment('short-count', 100)).toBe(1);
        expect(await s.kv.get('long')).toBe('v');
      });
    } else {
      it('an entry is alive until its TTL has passed, then never returned', async () => {
        const clock = s.clock!;
        await s.kv.set('pin', '123456', 10 * 60_000);
        await s.kv.set('other', 'x', 10 * 60_000);
        clock.advance(10 * 60_000 - 1);
        expect(await s.kv.get('pin')).toBe('123456');
        clock.advance(1);
        expect(await s.kv.get('pin')).toBeUndefined();
        expect(await s.kv.take('pin')).toBeUndefined();
        expect(await s.kv.take('other')).toBeUndefined();
        // A new value under the same key lives again.
        await s.kv.set('pin', '654321', 1000);
        expect(await s.kv.take('pin')).toBe('654321');
      });

      it('a counter restarts after its TTL, and each increment extends its life', async () => {
        const clock = s.clock!;
        expect(await s.kv.increment('fails', 1000)).toBe(1);
        clock.advance(600);
        expect(await s.kv.increment('fails', 1000)).toBe(2);
        clock.advance(600);
        // 1200 ms after the first increment, 600 after the second: still counting.
        expect(await s.kv.increment('fails', 1000)).toBe(3);
        clock.advance(1000);
        expect(await s.kv.get('fails')).toBeUndefined();
        expect(await s.kv.increment('fails', 1000)).toBe(1);
      });

      it('a fixed-window counter ends its TTL after the first count, however many follow', async () => {
        const clock = s.clock!;
        expect(await s.kv.increment('fixed', 1000, 'fixed')).toBe(1);
        clock.advance(600);
        expect(await s.kv.increment('fixed', 1000, 'fixed')).toBe(2);
        clock.advance(399);
        expect(await s.kv.increment('fixed', 1000, 'fixed')).toBe(3);
        clock.advance(1);
        // 1000 ms after the first count: the window is over although the last count came 1 ms ago.
        expect(await s.kv.get('fixed')).toBeUndefined();
        expect(await s.kv.increment('fixed', 1000, 'fixed')).toBe(1);
      });
    }
  });
}

for (const { name, skip } of VARIANTS.filter((v) => v.name === 'sqlite' || v.name === 'postgres')) {
  describe.skipIf(skip)(`SQL key-value store on ${name}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    it('purges expired rows now and then, and keeps live ones', async () => {
      const s = await open(name, 3);
      try {
        await s.kv.set('a', '1', 1000);
        await s.kv.set('b', '1', 1000);
        await s.kv.set('live', '1', 60_000);
        expect(await s.rowCount!()).toBe(3);
        s.clock!.advance(1000);
        await s.kv.set('c', '1', 1000);
        await s.kv.increment('d', 1000);
        expect(await s.rowCount!()).toBe(5);
        // The third write since the last purge sweeps the dead rows a and b.
        await s.kv.set('e', '1', 1000);
        expect(await s.rowCount!()).toBe(4);
        expect(await s.kv.get('live')).toBe('1');
      } finally {
        await s.close();
      }
    });
  });
}

describe('key-value store on redis', () => {
  it.skipIf(!process.env.TEST_REDIS_URL)(
    `gives a counter the increment’s TTL each time${process.env.TEST_REDIS_URL ? '' : ' — skipped: TEST_REDIS_URL is not set'}`,
    async () => {
      const backends = await openTestBackends({ sql: 'sqlite', redis: true, tempPrefix: 'kv-test-' });
      try {
        const prefix = `${backends.keyPrefix}kv:`;
        const kv = new RedisKeyValueStore(backends.redis!, prefix);
        await kv.increment('n', 5_000);
        await kv.increment('n', 60_000);
        const ttl = await backends.redis!.pttl(`${prefix}n`);
        expect(ttl).toBeGreaterThan(50_000);
        expect(ttl).toBeLessThanOrEqual(60_000);
        // A fixed window keeps the first count's TTL.
        await kv.increment('f', 5_000, 'fixed');
        await kv.increment('f', 60_000, 'fixed');
        const fixed = await backends.redis!.pttl(`${prefix}f`);
        expect(fixed).toBeGreaterThan(0);
        expect(fixed).toBeLessThanOrEqual(5_000);
      } finally {
        await backends.close();
      }
    },
  );
});
