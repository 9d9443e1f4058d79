import { randomBytes } from 'node:crypto';
import type {
  Application,
  ApplicationWithSecret,
  CreateApplicationRequest,
  UpdateApplicationRequest,
} from 'shared-contracts/console';
import type { AuditRepository } from '../../store/audit.repository.js';
import type { ClientRepository, OidcClient } from '../../store/client.repository.js';
import type { ConsoleActor } from './console-actor.js';

/** Dependencies of {@link ApplicationsConsoleService}. */
export interface ApplicationsConsoleDeps {
  clients: Pick<ClientRepository, 'list' | 'findById' | 'create' | 'update'>;
  audit: Pick<AuditRepository, 'record'>;
  now?: () => number;
}

/** A client id that exists already (CreateApplication): a 409 on `clientId`. */
export class ApplicationExistsError extends Error {
  constructor(readonly clientId: string) {
    super(`application ${clientId} exists`);
  }
}

/** A new client secret: 256 random bits, base64url (43 characters, above the CLI's 16-character floor). */
function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

function applicationOf(c: OidcClient): Application {
  return {
    clientId: c.clientId,
    name: c.name,
    confidential: c.clientSecret !== undefined,
    redirectUris: c.redirectUris,
    postLogoutRedirectUris: c.postLogoutRedirectUris,
    backchannelLogoutUri: c.backchannelLogoutUri ?? null,
    initiateLoginUri: c.initiateLoginUri ?? null,
    firstParty: c.firstParty,
    disabled: c.disabled,
  };
}

/**
 * The console's applications (OIDC clients, issue 52, ADR 0062) over the client repository `admin clients` writes:
 * the OIDC provider reads a client from the store on every lookup, so a change — a new redirect URI, a rotated
 * secret, a disabled client — holds on every replica at its next request. Every change is audited
 * (`console.applications.<action>`, the client id as subject); a secret never is.
 */
export class ApplicationsConsoleService {
  private readonly now: () => number;

  constructor(private readonly deps: ApplicationsConsoleDeps) {
    this.now = deps.now ?? Date.now;
  }

  async list(): Promise<Application[]> {
    return (await this.deps.clients.list()).map(applicationOf);
  }

  private async record(
    action: string,
    clientId: string,
    actor: ConsoleActor,
    reason: string | undefined,
    extra = {},
  ) {
    await this.deps.audit.record({
      at: this.now(),
      kind: `console.applications.${action}`,
      userId: actor.userId,
      ip: null,
      data: { actor: actor.name, subject: clientId, reason: reason?.trim() || null, ...extra },
    });
  }

  /** Creates a client; a confidential one gets a new secret, answered here once. */
  async create(request: CreateApplicationRequest, actor: ConsoleActor): Promise<ApplicationWithSecret> {
    if (await this.deps.clients.findById(request.clientId))
      throw new ApplicationExistsError(request.clientId);
    const secret = request.confidential ? newSecret() : undefined;
    const created = await this.deps.clients.create({
      clientId: request.clientId,
      name: request.name,
      redirectUris: request.redirectUris,
      postLogoutRedirectUris: request.postLogoutRedirectUris ?? [],
      ...(request.backchannelLogoutUri ? { backchannelLogoutUri: request.backchannelLogoutUri } : {}),
      ...(request.initiateLoginUri ? { initiateLoginUri: request.initiateLoginUri } : {}),
      ...(secret ? { clientSecret: secret } : {}),
      firstParty: request.firstParty ?? true,
    });
    await this.record('created', created.clientId, actor, request.reason, { confidential: !!secret });
    return { application: applicationOf(created), clientSecret: secret ?? null };
  }

  /** Changes the fields given; undefined when there is no such client. */
  async update(request: UpdateApplicationRequest, actor: ConsoleActor): Promise<Application | undefined> {
    const { clientId, reason, backchannelLogoutUri, initiateLoginUri, ...fields } = request;
    if (!(await this.deps.clients.findById(clientId))) return undefined;
    const changes: Partial<Omit<OidcClient, 'clientId'>> = { ...fields };
    // `null` clears an address; the repository writes null for an explicit undefined value.
    if (backchannelLogoutUri !== undefined) changes.backchannelLogoutUri = backchannelLogoutUri ?? undefined;
    if (initiateLoginUri !== undefined) changes.initiateLoginUri = initiateLoginUri ?? undefined;
    const updated = await this.deps.clients.update(clientId, changes);
    const changed = [
      ...Object.keys(fields),
      ...(backchannelLogoutUri !== undefined ? ['backchannelLogoutUri'] : []),
      ...(initiateLoginUri !== undefined ? ['initiateLoginUri'] : []),
    ];
    await this.record('updated', clientId, actor, reason, { changed });
    return updated && applicationOf(updated);
  }

  /** Disables (or enables again) a client; undefined when there is no such client. */
  async setDisabled(
    clientId: string,
    disabled: boolean,
    actor: ConsoleActor,
    reason: string | undefined,
  ): Promise<Application | undefined> {
    if (!(await this.deps.clients.findById(clientId))) return undefined;
    const updated = await this.deps.clients.update(clientId, { disabled });
    await this.record(disabled ? 'disabled' : 'enabled', clientId, actor, reason);
    return updated && applicationOf(updated);
  }

  /**
   * A new secret for a confidential client, answered once; the old one stops working at once. Undefined when there
   * is no such client; `public` for a public client (it has no secret to rotate).
   */
  async rotateSecret(
    clientId: string,
    actor: ConsoleActor,
    reason: string | undefined,
  ): Promise<ApplicationWithSecret | 'public' | undefined> {
    const client = await this.deps.clients.findById(clientId);
    if (!client) return undefined;
    if (client.clientSecret === undefined) return 'public';
    const secret = newSecret();
    const updated = await this.deps.clients.update(clientId, { clientSecret: secret });
    await this.record('secretRotated', clientId, actor, reason);
    return { application: applicationOf(updated!), clientSecret: secret };
  }
}
