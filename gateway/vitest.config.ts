import { defineConfig } from 'vitest/config';

/**
 * Suites whose assertions are about time (S11: answers for known and unknown accounts cannot be told apart by
 * their duration, 200 samples each): they run after the others, one file at a time, so no other suite of this
 * package shares the two cores with them.
 */
const TIMING = ['src/http/security-checklist.test.ts', 'src/http/recovery.test.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    // argon2id at OWASP parameters costs ~20 ms a hash; the timing and throttling suites need room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'gateway',
          include: ['src/**/*.test.ts'],
          exclude: TIMING,
          // One file at a time. Two at a time met on PostgreSQL in CI: runtime.test.ts' start whose schema comes
          // from DATABASE_URL's search_path (no migrationTableSchema) let Kysely's migrator find another file's
          // lock table and skip creating its own ("relation kysely_migration_lock does not exist"), and
          // recent-sign-in.test.ts once failed with its fresh schema "does not exist" (not yet understood). Back to
          // two files once both are explained and fixed.
          maxWorkers: 1,
          fileParallelism: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'timing',
          include: TIMING,
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
