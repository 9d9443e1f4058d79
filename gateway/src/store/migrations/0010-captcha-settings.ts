import type { Kysely } from 'kysely';

// A partner's captcha (ADR 0014): the provider (altcha, recaptcha-v2, recaptcha-v3, off), when a challenge is asked
// (always, never, risk), reCAPTCHA's site key and its secret sealed with the data-encryption key, and the v3 minimum
// score in hundredths. A table of its own keeps the partners table and its repository as they are; no row means
// the self-hosted proof-of-work on risk.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('captcha_settings')
    .addColumn('partner_id', 'text', (c) => c.primaryKey().references('partners.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull().defaultTo('altcha'))
    .addColumn('when_required', 'text', (c) => c.notNull().defaultTo('risk'))
    .addColumn('site_key', 'text')
    .addColumn('secret', 'text')
    .addColumn('min_score', 'integer', (c) => c.notNull().defaultTo(50))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
