import { defineConfig } from 'vitest/config';

// Only the build-output tests (byte budget, first HTML) belong to the normal suite; the benchmarks themselves run with `npm run bench`.
export default defineConfig({
  test: { include: ['budget.test.mjs', 'first-paint.test.mjs'], testTimeout: 30_000 },
});
