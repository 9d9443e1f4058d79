import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

// The first schema, with the tables the flows need. Keep this migration frozen once released: later changes get a new
// numbered file, registered in migrator.ts.
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const serial = (table: string) =>
    db.schema
      .createTable(table)
      .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      );

  await db.schema
    .createTable('partners')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('domains', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('background_color', 'text')
    .addColumn('logo', 'text')
    .addColumn('logo_content_type', 'text')
    .addColumn('privacy_policy_url', 'text')
    .addColumn('default_language', 'text', (c) => c.notNull().defaultTo('en-GB'))
    .addColumn('available_languages', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('show_login_providers', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('show_language_options', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('show_background_images', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_normalized', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text')
    .addColumn('email_normalized', 'text', (c) => c.unique())
    .addColumn('phone', 'text')
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('password_changed_at', 'bigint')
    .addColumn('password_expires_at', 'bigint')
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('roles', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('requires_two_factor', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('partner_id', 'text', (c) => c.references('partners.id').onDelete('set null'))
    .addColumn('security_stamp', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('customers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.references('partners.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('memberships')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('roles', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('memberships_pk', ['user_id', 'customer_id'])
    .execute();

  await db.schema
    .createTable('oidc_clients')
    .addColumn('client_id', 'text', (c) => c.primaryKey())
    .addColumn('client_secret_enc', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('redirect_uris', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('backchannel_logout_uri', 'text')
    .addColumn('first_party', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('external_logins')
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('vendor_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('external_logins_pk', ['issuer', 'subject'])
    .execute();

  await db.schema
    .createTable('webauthn_credentials')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('webauthn_credentials_user')
    .on('webauthn_credentials')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('second_factors')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('totp_secret_enc', 'text')
    .addColumn('totp_last_step', 'bigint')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('preferred_method', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('recovery_codes_user').on('recovery_codes').column('user_id').execute();

  await db.schema
    .createTable('one_time_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await serial('audit_events')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('ip', 'text')
    .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.createIndex('audit_events_user').on('audit_events').columns(['user_id', 'at']).execute();

  await db.schema
    .createTable('oidc_payloads')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('user_code', 'text')
    .addColumn('uid', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('consumed_at', 'bigint')
    .addPrimaryKeyConstraint('oidc_payloads_pk', ['kind', 'id'])
    .execute();
  await db.schema.createIndex('oidc_payloads_grant').on('oidc_payloads').column('grant_id').execute();
  await db.schema.createIndex('oidc_payloads_user_code').on('oidc_payloads').column('user_code').execute();
  await db.schema.createIndex('oidc_payloads_uid').on('oidc_payloads').column('uid').execute();
  await db.schema.createIndex('oidc_payloads_expires').on('oidc_payloads').column('expires_at').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();

  await serial('outbox')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
