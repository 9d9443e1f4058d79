// Section 1's bound on threads of its own (lib/argon2-bound.mjs measureVerifiesOnThreads), with the gateway's real
// @node-rs/argon2 and cheap parameters so the test takes a fraction of a second.
import { describe, expect, it } from 'vitest';
import { hashWith, measureVerifiesOnThreads } from './lib/argon2-bound.mjs';

const CHEAP = { algorithm: 2, memoryCost: 64, timeCost: 1, parallelism: 1 };

describe('verifies on threads of their own', () => {
  it('counts the verifies every thread did until the deadline', async () => {
    const hash = await hashWith(CHEAP, 'right password');
    const t0 = performance.now();
    const r = await measureVerifiesOnThreads({
      hash,
      password: 'right password',
      threads: 2,
      durationMs: 300,
    });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(300);
    expect(r.count).toBeGreaterThan(10);
    // The rate is over the measured time, which is the 300 ms and the last verify's end (a fraction of a ms here).
    expect(r.perSecond).toBeLessThanOrEqual(r.count / 0.3);
    expect(r.perSecond).toBeGreaterThan(r.count / 0.4);
    expect(r.meanMs).toBeGreaterThan(0);
  });

  it('fails when a verify does not match, instead of counting it', async () => {
    const hash = await hashWith(CHEAP, 'right password');
    await expect(
      measureVerifiesOnThreads({ hash, password: 'wrong password', threads: 1, durationMs: 100 }),
    ).rejects.toThrow(/verifySync returned false/);
  });
});
