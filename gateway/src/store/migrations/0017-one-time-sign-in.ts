import type { Kysely } from 'kysely';

// One-time-token sign-in (issue 15, ADR 0019) keeps its tokens in one_time_tokens (0001) with two more columns:
// - binding_hash: the SHA-256 of the browser binding (the session that asked), null for a token the admin CLI issued;
//   the typed code is looked up by it, so a code only ever meets the token of the browser that asked for it;
// - attempts: wrong codes typed against the token, raised by a conditional UPDATE so that parallel guesses cannot
//   spend more than the limit (S5, S6, S42) on SQLite and PostgreSQL alike.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('one_time_tokens').addColumn('binding_hash', 'text').execute();
  await db.schema
    .alterTable('one_time_tokens')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('one_time_tokens_binding')
    .on('one_time_tokens')
    .columns(['binding_hash', 'purpose'])
    .execute();
}
