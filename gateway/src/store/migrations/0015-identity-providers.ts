import type { Kysely } from 'kysely';

// External OpenID Connect providers (upstreams) as configuration (ADR 0018): the admin CLI's `idps` commands write
// them, the gateway discovers each at start and on change. The client secret is sealed with the data-encryption
// key as the OIDC clients' secrets are. `partner_id` null: offered on every partner's sign-in page that shows login
// providers; `vendor` 1: a vendor's company provider (vendor sign-in only, never a button), whose accounts get
// `roles` (JSON list of role names). `trust_upstream_mfa` 1: an upstream `amr` naming a second factor stands for
// the local one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('identity_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_secret_enc', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull().defaultTo('openid profile email'))
    .addColumn('partner_id', 'text', (c) => c.references('partners.id').onDelete('cascade'))
    .addColumn('vendor', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('roles', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('button_label', 'text')
    .addColumn('trust_upstream_mfa', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
