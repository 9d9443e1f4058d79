import type { Kysely, Selectable } from 'kysely';
import type { SecretBox } from './secret-box.js';
import type { Database, OidcClientTable } from './schema.js';

/** An OIDC relying party. `clientSecret` is undefined for public (PKCE-only) clients. */
export interface OidcClient {
  clientId: string;
  clientSecret: string | undefined;
  name: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  backchannelLogoutUri: string | undefined;
  /** First-party clients skip the consent prompt. */
  firstParty: boolean;
  /** Where the application starts its own sign-in (initiate_login_uri); the signed-in home offers it. */
  initiateLoginUri: string | undefined;
  /** Disabled in the console (ADR 0062): unknown to the OIDC provider, its URLs no return address. */
  disabled: boolean;
}

/** Fields of a new client. */
export type NewOidcClient = Pick<OidcClient, 'clientId' | 'name' | 'redirectUris'> &
  Partial<Omit<OidcClient, 'clientId' | 'name' | 'redirectUris'>>;

/** OIDC clients table access; secrets are sealed with AES-256-GCM at rest. */
export class ClientRepository {
  private readonly changeListeners = new Set<() => void>();

  /** Runs `listener` after every write through this repository, so in-process caches drop their copy at once. */
  onChange(listener: () => void): void {
    this.changeListeners.add(listener);
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener();
  }

  constructor(
    private readonly db: Kysely<Database>,
    private readonly secrets: SecretBox,
    private readonly now: () => number = Date.now,
  ) {}

  private toClient(row: Selectable<OidcClientTable>): OidcClient {
    return {
      clientId: row.client_id,
      clientSecret: row.client_secret_enc ? this.secrets.decrypt(row.client_secret_enc) : undefined,
      name: row.name,
      redirectUris: JSON.parse(row.redirect_uris) as string[],
      postLogoutRedirectUris: JSON.parse(row.post_logout_redirect_uris) as string[],
      backchannelLogoutUri: row.backchannel_logout_uri ?? undefined,
      firstParty: row.first_party === 1,
      initiateLoginUri: row.initiate_login_uri ?? undefined,
      disabled: row.disabled === 1,
    };
  }

  async create(input: NewOidcClient): Promise<OidcClient> {
    await this.db
      .insertInto('oidc_clients')
      .values({
        client_id: input.clientId,
        client_secret_enc: input.clientSecret ? this.secrets.encrypt(input.clientSecret) : null,
        name: input.name,
        redirect_uris: JSON.stringify(input.redirectUris),
        post_logout_redirect_uris: JSON.stringify(input.postLogoutRedirectUris ?? []),
        backchannel_logout_uri: input.backchannelLogoutUri ?? null,
        first_party: input.firstParty === false ? 0 : 1,
        initiate_login_uri: input.initiateLoginUri ?? null,
        created_at: this.now(),
      })
      .execute();
    this.changed();
    return (await this.findById(input.clientId))!;
  }

  async update(
    clientId: string,
    changes: Partial<Omit<OidcClient, 'clientId'>>,
  ): Promise<OidcClient | undefined> {
    const set: Partial<Selectable<OidcClientTable>> = {};
    if (changes.clientSecret !== undefined)
      set.client_secret_enc = this.secrets.encrypt(changes.clientSecret);
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.redirectUris !== undefined) set.redirect_uris = JSON.stringify(changes.redirectUris);
    if (changes.postLogoutRedirectUris !== undefined)
      set.post_logout_redirect_uris = JSON.stringify(changes.postLogoutRedirectUris);
    if ('backchannelLogoutUri' in changes) set.backchannel_logout_uri = changes.backchannelLogoutUri ?? null;
    if (changes.firstParty !== undefined) set.first_party = changes.firstParty ? 1 : 0;
    if ('initiateLoginUri' in changes) set.initiate_login_uri = changes.initiateLoginUri ?? null;
    if (changes.disabled !== undefined) set.disabled = changes.disabled ? 1 : 0;
    if (Object.keys(set).length > 0) {
      await this.db.updateTable('oidc_clients').set(set).where('client_id', '=', clientId).execute();
      this.changed();
    }
    return this.findById(clientId);
  }

  async findById(clientId: string): Promise<OidcClient | undefined> {
    const row = await this.db
      .selectFrom('oidc_clients')
      .selectAll()
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return row ? this.toClient(row) : undefined;
  }

  /** The client the OIDC provider knows: undefined when there is none or it is disabled (ADR 0062). */
  async findEnabled(clientId: string): Promise<OidcClient | undefined> {
    const client = await this.findById(clientId);
    return client && !client.disabled ? client : undefined;
  }

  async list(): Promise<OidcClient[]> {
    const rows = await this.db.selectFrom('oidc_clients').selectAll().orderBy('client_id').execute();
    return rows.map((row) => this.toClient(row));
  }

  /**
   * Absolute URLs a returnUrl may point at (S31): every registered redirect and post-logout URI, exactly as
   * registered (matched as a path prefix by `isRegisteredClientUrl`).
   */
  async registeredReturnUrls(): Promise<string[]> {
    const clients = (await this.list()).filter((c) => !c.disabled);
    return clients.flatMap((c) => [...c.redirectUris, ...c.postLogoutRedirectUris]);
  }
}
