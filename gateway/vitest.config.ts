import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // argon2id at OWASP parameters costs ~20 ms a hash; the timing and throttling suites need room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Files run one at a time: the S11 timing test must not share two cores with other suites.
    fileParallelism: false,
  },
});
