import { createHash, generateKeyPairSync, type webcrypto } from 'node:crypto';
import type { Kysely, Selectable, Updateable } from 'kysely';
import { UPSTREAM_TOKEN_AUTH_METHODS, type UpstreamTokenAuthMethod } from 'shared-contracts/console';
import type { RoleName } from './roles.js';
import type { SecretBox } from './secret-box.js';
import type { Database, IdentityProviderTable } from './schema.js';

/** An external OpenID Connect provider (an upstream) the gateway signs people in through (ADR 0018). */
export interface IdentityProvider {
  id: string;
  /** Shown on the vendor page and the account page; the button's text unless `buttonLabel` is set. */
  name: string;
  /** The upstream's issuer; its discovery document is read from `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  /** The partner whose sign-in page offers it; undefined: every partner's. */
  partnerId: string | undefined;
  /** A vendor's company provider: vendor sign-in only, its accounts get {@link IdentityProvider.roles}. */
  vendor: boolean;
  roles: RoleName[];
  buttonLabel: string | undefined;
  /** An upstream `amr` with a second factor (`mfa`, `otp`, `hwk`, …) stands for the local second factor. */
  trustUpstreamMfa: boolean;
  /** Disabled in the console (ADR 0062): no button, no sign-in through it; its links stay. */
  disabled: boolean;
  /** The operator's token endpoint authentication method (ADR 0064); undefined: chosen from discovery. */
  tokenAuthMethod: UpstreamTokenAuthMethod | undefined;
  /** The method the last discovery chose; undefined until the provider was discovered. */
  tokenAuthMethodInUse: UpstreamTokenAuthMethod | undefined;
}

/** The key pair `private_key_jwt` signs the client assertion with (RS256); the public half is served as a JWKS. */
export interface UpstreamSigningKey {
  privateJwk: webcrypto.JsonWebKey & { kid: string };
  publicJwk: webcrypto.JsonWebKey & { kid: string; alg: 'RS256'; use: 'sig' };
}

const asMethod = (text: string | null): UpstreamTokenAuthMethod | undefined =>
  (UPSTREAM_TOKEN_AUTH_METHODS as readonly string[]).includes(text ?? '')
    ? (text as UpstreamTokenAuthMethod)
    : undefined;

/** A new RSA key pair as JWKs; `kid` is the RFC 7638 thumbprint of the public key. */
function newSigningKey(): UpstreamSigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pub = publicKey.export({ format: 'jwk' });
  const kid = createHash('sha256')
    .update(JSON.stringify({ e: pub.e, kty: pub.kty, n: pub.n }))
    .digest('base64url');
  return {
    privateJwk: { ...privateKey.export({ format: 'jwk' }), kid },
    publicJwk: { kty: pub.kty, n: pub.n, e: pub.e, kid, alg: 'RS256', use: 'sig' },
  };
}

/** Fields of a new provider. */
export type NewIdentityProvider = Pick<
  IdentityProvider,
  'id' | 'name' | 'issuer' | 'clientId' | 'clientSecret'
> &
  Partial<
    Omit<IdentityProvider, 'id' | 'name' | 'issuer' | 'clientId' | 'clientSecret' | 'tokenAuthMethodInUse'>
  >;

/** Fields that can change (`null` clears an optional one). */
export type IdentityProviderUpdate = Partial<
  Omit<IdentityProvider, 'id' | 'partnerId' | 'buttonLabel' | 'tokenAuthMethod' | 'tokenAuthMethodInUse'> & {
    partnerId: string | null;
    buttonLabel: string | null;
    /** null: chosen from discovery again. */
    tokenAuthMethod: UpstreamTokenAuthMethod | null;
  }
>;

/** The identity_providers table; the client secret is sealed with AES-256-GCM at rest. */
export class IdentityProviderRepository {
  private readonly changeListeners = new Set<(id: string) => void>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly secrets: SecretBox,
    private readonly now: () => number = Date.now,
  ) {}

  /** Runs `listener` after every write through this repository (the gateway re-reads discovery then). */
  onChange(listener: (id: string) => void): void {
    this.changeListeners.add(listener);
  }

  private changed(id: string): void {
    for (const listener of this.changeListeners) listener(id);
  }

  private toProvider(row: Selectable<IdentityProviderTable>): IdentityProvider {
    return {
      id: row.id,
      name: row.name,
      issuer: row.issuer,
      clientId: row.client_id,
      clientSecret: this.secrets.decrypt(row.client_secret_enc),
      scopes: row.scopes,
      partnerId: row.partner_id ?? undefined,
      vendor: row.vendor === 1,
      roles: JSON.parse(row.roles) as RoleName[],
      buttonLabel: row.button_label ?? undefined,
      trustUpstreamMfa: row.trust_upstream_mfa === 1,
      disabled: row.disabled === 1,
      tokenAuthMethod: asMethod(row.token_auth_method),
      tokenAuthMethodInUse: asMethod(row.token_auth_method_in_use),
    };
  }

  async create(input: NewIdentityProvider): Promise<IdentityProvider> {
    const at = this.now();
    await this.db
      .insertInto('identity_providers')
      .values({
        id: input.id,
        name: input.name,
        issuer: input.issuer,
        client_id: input.clientId,
        client_secret_enc: this.secrets.encrypt(input.clientSecret),
        scopes: input.scopes ?? 'openid profile email',
        partner_id: input.partnerId ?? null,
        vendor: input.vendor ? 1 : 0,
        roles: JSON.stringify(input.roles ?? []),
        button_label: input.buttonLabel ?? null,
        trust_upstream_mfa: input.trustUpstreamMfa ? 1 : 0,
        token_auth_method: input.tokenAuthMethod ?? null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    this.changed(input.id);
    return (await this.findById(input.id))!;
  }

  async update(id: string, changes: IdentityProviderUpdate): Promise<IdentityProvider | undefined> {
    const set: Updateable<IdentityProviderTable> = {};
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.issuer !== undefined) set.issuer = changes.issuer;
    if (changes.clientId !== undefined) set.client_id = changes.clientId;
    if (changes.clientSecret !== undefined)
      set.client_secret_enc = this.secrets.encrypt(changes.clientSecret);
    if (changes.scopes !== undefined) set.scopes = changes.scopes;
    if (changes.partnerId !== undefined) set.partner_id = changes.partnerId;
    if (changes.vendor !== undefined) set.vendor = changes.vendor ? 1 : 0;
    if (changes.roles !== undefined) set.roles = JSON.stringify(changes.roles);
    if (changes.buttonLabel !== undefined) set.button_label = changes.buttonLabel;
    if (changes.trustUpstreamMfa !== undefined) set.trust_upstream_mfa = changes.trustUpstreamMfa ? 1 : 0;
    if (changes.disabled !== undefined) set.disabled = changes.disabled ? 1 : 0;
    if (changes.tokenAuthMethod !== undefined) set.token_auth_method = changes.tokenAuthMethod;
    if (Object.keys(set).length > 0) {
      set.updated_at = this.now();
      await this.db.updateTable('identity_providers').set(set).where('id', '=', id).execute();
      this.changed(id);
    }
    return this.findById(id);
  }

  /**
   * Records the method discovery chose (shown by `idps list` and the console). No change event: it follows from the
   * settings, and discovery must not start itself again.
   */
  async recordMethodInUse(id: string, method: UpstreamTokenAuthMethod): Promise<void> {
    await this.db
      .updateTable('identity_providers')
      .set({ token_auth_method_in_use: method })
      .where('id', '=', id)
      .where((eb) =>
        eb.or([eb('token_auth_method_in_use', 'is', null), eb('token_auth_method_in_use', '!=', method)]),
      )
      .execute();
  }

  /**
   * The provider's `private_key_jwt` key pair, made and stored the first time it is asked for (the private half
   * sealed as the client secret is); undefined when there is no such provider. Replicas asking at once keep one.
   */
  async signingKey(id: string): Promise<UpstreamSigningKey | undefined> {
    const read = () =>
      this.db
        .selectFrom('identity_providers')
        .select(['signing_key_enc', 'signing_public_jwk'])
        .where('id', '=', id)
        .executeTakeFirst();
    let row = await read();
    if (!row) return undefined;
    if (!row.signing_key_enc || !row.signing_public_jwk) {
      const made = newSigningKey();
      await this.db
        .updateTable('identity_providers')
        .set({
          signing_key_enc: this.secrets.encrypt(JSON.stringify(made.privateJwk)),
          signing_public_jwk: JSON.stringify(made.publicJwk),
        })
        .where('id', '=', id)
        .where('signing_key_enc', 'is', null)
        .execute();
      row = await read();
      if (!row?.signing_key_enc || !row.signing_public_jwk) return undefined;
    }
    return {
      privateJwk: JSON.parse(this.secrets.decrypt(row.signing_key_enc)) as UpstreamSigningKey['privateJwk'],
      publicJwk: JSON.parse(row.signing_public_jwk) as UpstreamSigningKey['publicJwk'],
    };
  }

  /** Removes the provider and every identity linked through it; false when there was none. */
  async remove(id: string): Promise<boolean> {
    const found = await this.findById(id);
    if (!found) return false;
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('external_logins').where('vendor_id', '=', id).execute();
      await trx.deleteFrom('identity_providers').where('id', '=', id).execute();
    });
    this.changed(id);
    return true;
  }

  async findById(id: string): Promise<IdentityProvider | undefined> {
    const row = await this.db
      .selectFrom('identity_providers')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? this.toProvider(row) : undefined;
  }

  async list(): Promise<IdentityProvider[]> {
    const rows = await this.db.selectFrom('identity_providers').selectAll().orderBy('id').execute();
    return rows.map((row) => this.toProvider(row));
  }
}
