import { defineConfig } from 'vitest/config';

// Only the budget test belongs to the normal suite; the benchmarks themselves run with `npm run bench`.
export default defineConfig({
  test: { include: ['budget.test.mjs'], testTimeout: 30_000 },
});
