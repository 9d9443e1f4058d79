import { describe, expect, it } from 'vitest';
import { hashConcurrency } from './passwords.service.js';

describe('hashes in flight (ADR 0004)', () => {
  it.each([
    // [cores, libuv pool threads, hashes in flight]
    [1, 4, 2],
    [2, 4, 3],
    [2, 6, 3], // npm start sizes the pool to cores + 4
    [4, 4, 3], // the default pool: one thread is always left for file and DNS work
    [8, 12, 9],
    [8, 2, 1],
    [1, 1, 1], // never none
  ])('%i cores, a pool of %i: %i at once', (cores, pool, expected) => {
    expect(hashConcurrency(cores, pool)).toBe(expected);
  });
});
