import { describe, expect, it } from 'vitest';
import { randomFrom, randomToken } from './tokens.js';

describe('random tokens from the pool', () => {
  it('hands out every byte once: no two of 20,000 tokens share any 8-byte run, across many pool refills', () => {
    const seen = new Set<string>();
    const lengths = new Set<boolean>();
    let repeated = 0;
    for (let i = 0; i < 20_000; i += 1) {
      // Mixed sizes, as the gateway asks (session id, nonce, anti-forgery token), so the pool's end falls anywhere.
      const bytes = [32, 16, 12, 9][i % 4]!;
      const raw = Buffer.from(randomToken(bytes), 'base64url');
      lengths.add(raw.length === bytes);
      for (let at = 0; at + 8 <= raw.length; at += 1) {
        const run = raw.toString('hex', at, at + 8);
        if (seen.has(run)) repeated += 1;
        seen.add(run);
      }
    }
    expect([...lengths]).toEqual([true]);
    expect(repeated).toBe(0);
  });

  it('keeps bytes already handed out as they were when the pool is drawn again', () => {
    const first = randomFrom(32);
    const copy = Buffer.from(first);
    for (let i = 0; i < 1_000; i += 1) randomFrom(32);
    expect(first.equals(copy)).toBe(true);
  });

  it('draws a request larger than the pool on its own, and any size has its length', () => {
    expect(randomFrom(10_000)).toHaveLength(10_000);
    expect(randomFrom(0)).toHaveLength(0);
    expect(randomToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
