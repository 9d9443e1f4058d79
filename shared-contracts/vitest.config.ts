import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.mjs'],
    environment: 'node',
    testTimeout: 30_000,
  },
});
