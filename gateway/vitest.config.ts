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
          // Two files at a time (vitest's default is one fewer than the cores: one on the two-core CI machine).
          // Each file opens its own SQLite folder, PostgreSQL schema and Redis key prefix (testing/backends.ts) and
          // listens on free ports only, so files do not meet. They met once on PostgreSQL: Kysely's migrator, given
          // no migrationTableSchema, found another file's kysely_migration_lock; the migrator now names the
          // connection's current_schema() (store/migrator.ts, migrator.test.ts).
          maxWorkers: 2,
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
