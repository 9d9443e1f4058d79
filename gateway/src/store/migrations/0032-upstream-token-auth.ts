import type { Kysely } from 'kysely';

// Issue 53 (ADR 0064): how the gateway authenticates at each upstream's token endpoint. `token_auth_method` is the
// operator's choice (null: chosen from the provider's discovery), `token_auth_method_in_use` what the last discovery
// chose; `private_key_jwt` signs with a key pair of the provider's own, made when first needed: the private JWK
// sealed as the client secret is, the public JWK served at `/signin/<id>/jwks`.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('identity_providers').addColumn('token_auth_method', 'text').execute();
  await db.schema.alterTable('identity_providers').addColumn('token_auth_method_in_use', 'text').execute();
  await db.schema.alterTable('identity_providers').addColumn('signing_key_enc', 'text').execute();
  await db.schema.alterTable('identity_providers').addColumn('signing_public_jwk', 'text').execute();
}
