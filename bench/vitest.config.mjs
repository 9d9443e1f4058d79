import { defineConfig } from 'vitest/config';

// The build-output tests (byte budget, first HTML) and the load generators' own tests belong to the normal suite; the benchmarks themselves run with `npm run bench`.
export default defineConfig({
  test: {
    include: [
      'budget.test.mjs',
      'bytes-share.test.mjs',
      'soak-figures.test.mjs',
      'first-paint.test.mjs',
      'paced.test.mjs',
      'paced-tasks.test.mjs',
      'cpu-split.test.mjs',
      'cpu-profile.test.mjs',
      'page-trace.test.mjs',
      'argon2-bound.test.mjs',
      'bare-sign-in.test.mjs',
    ],
    testTimeout: 30_000,
  },
});
