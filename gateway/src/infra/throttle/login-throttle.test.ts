import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_THROTTLE_LIMITS,
  LoginThrottle,
  ThrottleUnavailableError,
  type ThrottleAttempt,
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
  knownSourceSeconds: 3600,
};

/** The subject of an attempt on `account` from `source`. */
const on = (account: string, source: string, device?: string) => ({ account, source, device });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Begins `n` attempts one after the other; the decisions in order. */
async function attempts(throttle: LoginThrottle, n: number, login: string, ip: string) {
  const decisions: ThrottleDecision[] = [];
  for (let i = 0; i < n; i += 1) decisions.push(await throttle.begin(on(login, ip)));
  return decisions.map((d) => d.allowed);
}

const BACKENDS = [
  { name: 'memory', skip: false },
  { name: 'redis', skip: process.env.TEST_REDIS_URL ? false : 'TEST_REDIS_URL is not set' },
] as const;

for (const { name, skip } of BACKENDS) {
  describe.skipIf(skip)(`sign-in throttle on ${name}${skip ? ` — skipped: ${skip}` : ''}`, () => {
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

    it('S7 locks an account out from one source only: other sources and other accounts go on', async () => {
      const t = throttle({ perAccountSource: 3 });
      expect(await attempts(t, 4, 'ann', '203.0.113.1')).toEqual([true, true, true, false]);
      expect(await t.begin(on('ann', '203.0.113.2'))).toMatchObject({ allowed: true });
      expect(await t.begin(on('bob', '203.0.113.1'))).toMatchObject({ allowed: true });
    });

    it('S4 bounds the attempts on one account over all sources', async () => {
      const t = throttle({ perAccount: 3 });
      for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3'])
        expect(await t.begin(on('ann', ip))).toMatchObject({ allowed: true });
      const refused = await t.begin(on('ann', '203.0.113.4'));
      expect(refused.allowed).toBe(false);
      expect(await t.begin(on('bob', '203.0.113.4'))).toMatchObject({ allowed: true });
    });

    it('bounds the attempts from one source over all accounts (password spraying)', async () => {
      const t = throttle({ perSource: 3 });
      for (const login of ['ann', 'bob', 'carl'])
        expect(await t.begin(on(login, '203.0.113.1'))).toMatchObject({ allowed: true });
      expect(await t.begin(on('dora', '203.0.113.1'))).toMatchObject({ allowed: false });
      expect(await t.begin(on('dora', '203.0.113.2'))).toMatchObject({ allowed: true });
    });

    it('a refused attempt is not counted against the account', async () => {
      const t = throttle({ perSource: 1, perAccount: 1 });
      await t.begin(on('ann', '203.0.113.1'));
      // Refused by the source limit: dora's one attempt must still be there for her own source.
      expect(await t.begin(on('dora', '203.0.113.1'))).toMatchObject({ allowed: false });
      expect(await t.begin(on('dora', '203.0.113.2'))).toMatchObject({ allowed: true });
    });

    it('a refusal says when to try again, within the window', async () => {
      const t = throttle({ perAccountSource: 1, windowSeconds: 600 });
      await t.begin(on('ann', '203.0.113.1'));
      const refused = await t.begin(on('ann', '203.0.113.1'));
      expect(refused.allowed).toBe(false);
      if (refused.allowed) return;
      expect(refused.retryAfterSeconds).toBeGreaterThan(590);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(600);
    });

    it('S5 reserves atomically: 50 parallel attempts get exactly the limit through', async () => {
      const t = throttle({ perAccountSource: 5 });
      const decisions = await Promise.all(
        Array.from({ length: 50 }, () => t.begin(on('ann', '203.0.113.1'))),
      );
      expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
      // Each allowed attempt knows how many came before it, so the growing delay cannot be skipped by racing.
      expect(decisions.flatMap((d) => (d.allowed ? [d.failuresBefore] : [])).sort((a, b) => a - b)).toEqual([
        0, 1, 2, 3, 4,
      ]);
    });

    it('S7 the lockout ends by itself when the window has passed', async () => {
      const t = throttle({ perAccountSource: 2, windowSeconds: 1 });
      expect(await attempts(t, 3, 'ann', '203.0.113.1')).toEqual([true, true, false]);
      await sleep(1100);
      expect(await t.begin(on('ann', '203.0.113.1'))).toMatchObject({ allowed: true });
    });

    it('S4 after the free failures each failure delays the next attempt, doubling up to the maximum', async () => {
      const t = throttle({ freeFailures: 2, maxDelaySeconds: 2 });
      const fail = async () => {
        const d = await t.begin(on('ann', '203.0.113.1'));
        if (!d.allowed) throw new Error('refused');
        await t.failed(d.attempt);
      };
      await fail();
      await fail();
      const third = await t.begin(on('ann', '203.0.113.1'));
      expect(third).toMatchObject({ allowed: true, failuresBefore: 2 });
      if (!third.allowed) return;
      // That third attempt fails: the next one waits a second, from that source only.
      await t.failed(third.attempt);
      expect(await t.begin(on('ann', '203.0.113.1'))).toEqual({ allowed: false, retryAfterSeconds: 1 });
      expect(await t.begin(on('ann', '203.0.113.9'))).toMatchObject({ allowed: true });
      await sleep(1100);
      // The fourth failure doubles the delay; a later one would double it again but stays at the maximum (2 s).
      await fail();
      expect(await t.begin(on('ann', '203.0.113.1'))).toEqual({ allowed: false, retryAfterSeconds: 2 });
      await sleep(2100);
      const fifth = await t.begin(on('ann', '203.0.113.1'));
      if (!fifth.allowed) throw new Error('refused');
      await t.failed({ ...fifth.attempt, failuresBefore: 10 });
      expect(await t.begin(on('ann', '203.0.113.1'))).toEqual({ allowed: false, retryAfterSeconds: 2 });
    });

    it("a success starts the attempt's own counter again", async () => {
      const t = throttle({ perAccountSource: 3, freeFailures: 1 });
      const first = await t.begin(on('ann', '203.0.113.1'));
      const second = await t.begin(on('ann', '203.0.113.1'));
      if (!first.allowed || !second.allowed) throw new Error('refused');
      await t.failed(second.attempt);
      await t.succeeded(second.attempt);
      expect(first).toMatchObject({ allowed: true, failuresBefore: 0 });
      expect(await t.begin(on('ann', '203.0.113.1'))).toMatchObject({ allowed: true, failuresBefore: 0 });
      expect(await attempts(t, 3, 'ann', '203.0.113.1')).toEqual([true, true, false]);
    });

    it('S7 a source the account signed in from is judged by its own counter only', async () => {
      const t = throttle({ perAccount: 2, perSource: 2 });
      const own = await t.begin(on('ann', '203.0.113.1'));
      if (!own.allowed) throw new Error('refused');
      await t.succeeded(own.attempt);
      // Strangers spend the account's and the source's shared budgets.
      await attempts(t, 2, 'ann', '203.0.113.7');
      await attempts(t, 3, 'bob', '203.0.113.1');
      expect(await t.begin(on('ann', '203.0.113.8'))).toMatchObject({ allowed: false, challenge: 'captcha' });
      expect(await t.begin(on('carl', '203.0.113.1'))).toMatchObject({
        allowed: false,
        challenge: 'captcha',
      });
      // Ann's known source is neither: it goes on.
      expect(await t.begin(on('ann', '203.0.113.1'))).toMatchObject({ allowed: true });
    });

    it('S7 a known device has a counter of its own, apart from its address', async () => {
      const t = throttle({ perAccountSource: 2, perAccount: 1 });
      expect(await attempts(t, 3, 'ann', '203.0.113.1')).toEqual([true, false, false]);
      expect(await t.begin(on('ann', '203.0.113.1', 'laptop'))).toMatchObject({ allowed: true });
      expect(await t.begin(on('ann', '203.0.113.1', 'laptop'))).toMatchObject({ allowed: true });
      // Its own lockout is not a shared counter: no challenge would help.
      expect(await t.begin(on('ann', '203.0.113.1', 'laptop'))).toEqual({
        allowed: false,
        retryAfterSeconds: expect.any(Number),
      });
      expect(await t.begin(on('ann', '203.0.113.1', 'phone'))).toMatchObject({ allowed: true });
    });

    it('S4 a success from a stranger gives back its place, but not what other strangers spent', async () => {
      const t = throttle({ perAccount: 3 });
      await attempts(t, 2, 'ann', '203.0.113.7');
      const owner = await t.begin(on('ann', '203.0.113.1'));
      if (!owner.allowed) throw new Error('refused');
      await t.succeeded(owner.attempt);
      expect(await attempts(t, 2, 'ann', '203.0.113.8')).toEqual([true, false]);
    });
  });
}

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
    await expect(throttle.begin(on('ann', '203.0.113.1'))).rejects.toBeInstanceOf(ThrottleUnavailableError);
    const attempt: ThrottleAttempt = {
      failuresBefore: 10,
      known: false,
      keys: { own: 'a:203.0.113.1', account: 'a', source: '203.0.113.1', knownSource: 'a:203.0.113.1' },
    };
    await expect(throttle.failed(attempt)).rejects.toBeInstanceOf(ThrottleUnavailableError);
    await expect(throttle.succeeded(attempt)).rejects.toBeInstanceOf(ThrottleUnavailableError);
  });
});
