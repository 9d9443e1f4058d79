import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_THROTTLE_LIMITS,
  LoginThrottle,
  ThrottleUnavailableError,
  type ThrottleBackend,
  type ThrottleDecision,
  type ThrottleLimits,
} from './login-throttle.js';

// Limits large enough never to interfere, so each test tightens only the one it is about.
const LOOSE: ThrottleLimits = {
  perAccountSource: 1000,
  perAccount: 1000,
  perSource: 1000,
  freeFailures: 1000,
  maxDelaySeconds: 60,
  windowSeconds: 3600,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Begins `n` attempts one after the other; the decisions in order. */
async function attempts(throttle: LoginThrottle, n: number, login: string, ip: string) {
  const decisions: ThrottleDecision[] = [];
  for (let i = 0; i < n; i += 1) decisions.push(await throttle.begin(login, ip));
  return decisions.map((d) => d.allowed);
}

const BACKENDS = [
  { name: 'memory', skip: false },
  { name: 'redis', skip: !process.env.TEST_REDIS_URL },
] as const;

describe.each(BACKENDS)('sign-in throttle on $name', ({ name, skip }) => {
  let redis: Redis | undefined;
  const prefix = `test:${randomBytes(6).toString('hex')}:throttle`;
  let serial = 0;
  /** A throttle of its own for one test (fresh counters). */
  const throttle = (limits: Partial<ThrottleLimits>) => {
    const backend: ThrottleBackend =
      name === 'redis' ? { kind: 'redis', client: redis! } : { kind: 'memory' };
    serial += 1;
    return new LoginThrottle(backend, { ...LOOSE, ...limits }, `${prefix}:${serial}`);
  };

  beforeAll(async () => {
    if (skip || name !== 'redis') return;
    redis = new Redis(process.env.TEST_REDIS_URL!, { maxRetriesPerRequest: 1 });
    await redis.ping();
  });
  afterAll(async () => {
    if (!redis) return;
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it.skipIf(skip)(
    'S7 locks an account out from one source only: other sources and other accounts go on',
    async () => {
      const t = throttle({ perAccountSource: 3 });
      expect(await attempts(t, 4, 'ann', '203.0.113.1')).toEqual([true, true, true, false]);
      expect(await t.begin('ann', '203.0.113.2')).toMatchObject({ allowed: true });
      expect(await t.begin('bob', '203.0.113.1')).toMatchObject({ allowed: true });
    },
  );

  it.skipIf(skip)('counts the account however its name is typed', async () => {
    const t = throttle({ perAccountSource: 2 });
    await t.begin('Ann', '203.0.113.1');
    await t.begin(' ann ', '203.0.113.1');
    expect(await t.begin('ANN', '203.0.113.1')).toMatchObject({ allowed: false });
  });

  it.skipIf(skip)('S4 bounds the attempts on one account over all sources', async () => {
    const t = throttle({ perAccount: 3 });
    for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3'])
      expect(await t.begin('ann', ip)).toMatchObject({ allowed: true });
    const refused = await t.begin('ann', '203.0.113.4');
    expect(refused.allowed).toBe(false);
    expect(await t.begin('bob', '203.0.113.4')).toMatchObject({ allowed: true });
  });

  it.skipIf(skip)('bounds the attempts from one source over all accounts (password spraying)', async () => {
    const t = throttle({ perSource: 3 });
    for (const login of ['ann', 'bob', 'carl'])
      expect(await t.begin(login, '203.0.113.1')).toMatchObject({ allowed: true });
    expect(await t.begin('dora', '203.0.113.1')).toMatchObject({ allowed: false });
    expect(await t.begin('dora', '203.0.113.2')).toMatchObject({ allowed: true });
  });

  it.skipIf(skip)('a refused attempt is not counted against the account', async () => {
    const t = throttle({ perSource: 1, perAccount: 1 });
    await t.begin('ann', '203.0.113.1');
    // Refused by the source limit: dora's one attempt must still be there for her own source.
    expect(await t.begin('dora', '203.0.113.1')).toMatchObject({ allowed: false });
    expect(await t.begin('dora', '203.0.113.2')).toMatchObject({ allowed: true });
  });

  it.skipIf(skip)('a refusal says when to try again, within the window', async () => {
    const t = throttle({ perAccountSource: 1, windowSeconds: 600 });
    await t.begin('ann', '203.0.113.1');
    const refused = await t.begin('ann', '203.0.113.1');
    expect(refused.allowed).toBe(false);
    if (refused.allowed) return;
    expect(refused.retryAfterSeconds).toBeGreaterThan(590);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(600);
  });

  it.skipIf(skip)('S5 reserves atomically: 50 parallel attempts get exactly the limit through', async () => {
    const t = throttle({ perAccountSource: 5 });
    const decisions = await Promise.all(Array.from({ length: 50 }, () => t.begin('ann', '203.0.113.1')));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    // Each allowed attempt knows how many came before it, so the growing delay cannot be skipped by racing.
    expect(decisions.flatMap((d) => (d.allowed ? [d.failuresBefore] : [])).sort((a, b) => a - b)).toEqual([
      0, 1, 2, 3, 4,
    ]);
  });

  it.skipIf(skip)('S7 the lockout ends by itself when the window has passed', async () => {
    const t = throttle({ perAccountSource: 2, windowSeconds: 1 });
    expect(await attempts(t, 3, 'ann', '203.0.113.1')).toEqual([true, true, false]);
    await sleep(1100);
    expect(await t.begin('ann', '203.0.113.1')).toMatchObject({ allowed: true });
  });

  it.skipIf(skip)(
    'S4 after the free failures each failure delays the next attempt, doubling up to the maximum',
    async () => {
      const t = throttle({ freeFailures: 2, maxDelaySeconds: 2 });
      const fail = async () => {
        const d = await t.begin('ann', '203.0.113.1');
        if (!d.allowed) throw new Error('refused');
        await t.failed('ann', '203.0.113.1', d.failuresBefore);
      };
      await fail();
      await fail();
      expect(await t.begin('ann', '203.0.113.1')).toMatchObject({ allowed: true, failuresBefore: 2 });
      // That third attempt fails: the next one waits a second, from that source only.
      await t.failed('ann', '203.0.113.1', 2);
      expect(await t.begin('ann', '203.0.113.1')).toEqual({ allowed: false, retryAfterSeconds: 1 });
      expect(await t.begin('ann', '203.0.113.9')).toMatchObject({ allowed: true });
      await sleep(1100);
      // The fourth failure doubles the delay; the fifth would double it again but stays at the maximum (2 s).
      await fail();
      expect(await t.begin('ann', '203.0.113.1')).toEqual({ allowed: false, retryAfterSeconds: 2 });
      await sleep(2100);
      await t.failed('ann', '203.0.113.1', 10);
      expect(await t.begin('ann', '203.0.113.1')).toEqual({ allowed: false, retryAfterSeconds: 2 });
    },
  );

  it.skipIf(skip)('a success starts the account counters again', async () => {
    const t = throttle({ perAccountSource: 3, freeFailures: 1 });
    const first = await t.begin('ann', '203.0.113.1');
    await t.begin('ann', '203.0.113.1');
    await t.failed('ann', '203.0.113.1', 1);
    await t.succeeded('ann', '203.0.113.1');
    expect(first).toMatchObject({ allowed: true, failuresBefore: 0 });
    expect(await t.begin('ann', '203.0.113.1')).toEqual({ allowed: true, failuresBefore: 0 });
    expect(await attempts(t, 3, 'ann', '203.0.113.1')).toEqual([true, true, false]);
  });
});

describe('sign-in throttle on an unreachable Redis', () => {
  let redis: Redis;
  let throttle: LoginThrottle;
  beforeAll(() => {
    // Nothing listens on port 1: the client never becomes ready.
    redis = new Redis({
      host: '127.0.0.1',
      port: 1,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
    });
    throttle = new LoginThrottle({ kind: 'redis', client: redis }, DEFAULT_THROTTLE_LIMITS, 'test:down');
  });
  afterAll(() => {
    redis.disconnect();
  });

  it('S8 fails closed: every call throws ThrottleUnavailableError instead of letting the attempt through', async () => {
    await expect(throttle.begin('ann', '203.0.113.1')).rejects.toBeInstanceOf(ThrottleUnavailableError);
    await expect(throttle.failed('ann', '203.0.113.1', 10)).rejects.toBeInstanceOf(ThrottleUnavailableError);
    await expect(throttle.succeeded('ann', '203.0.113.1')).rejects.toBeInstanceOf(ThrottleUnavailableError);
  });
});
