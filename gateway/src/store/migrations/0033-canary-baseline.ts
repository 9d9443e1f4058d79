import type { Kysely } from 'kysely';

// The canary guard's baseline (ADR 0059, amended): the health counts are kept per minute, so the counts of the minute
// a canary starts in also hold what was counted in it before the start (a canary of the same version ended and
// started again, a version that was active a moment ago). What that minute held when the canary started is kept
// with it (JSON, VersionCounts[]), and the guard counts only what came after.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('release_remotes').addColumn('canary_baseline', 'text').execute();
}
