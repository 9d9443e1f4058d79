import { formatErrorCode, upstreamJwksPath, type ErrorCode } from 'shared-contracts';
import type { CreateUpstreamRequest, Upstream, UpdateUpstreamRequest } from 'shared-contracts/console';
import type { AuditRepository } from '../../store/audit.repository.js';
import type {
  IdentityProvider,
  IdentityProviderRepository,
  IdentityProviderUpdate,
} from '../../store/identity-provider.repository.js';
import type { PartnerRepository } from '../../store/partner.repository.js';
import type { RoleName } from '../../store/roles.js';
import type { ProbeResult, UpstreamSettings } from '../external/upstreams.js';
import type { ConsoleActor } from './console-actor.js';
import { recordConsoleAction } from './console-audit.js';

/** A refused upstream change: the field and its error text (a code, with values when it has some). */
export class UpstreamChangeError extends Error {
  constructor(
    readonly field: string,
    readonly text: string,
    readonly status: 400 | 409 = 400,
  ) {
    super(`${field}: ${text}`);
  }
}

/** Dependencies of {@link UpstreamsConsoleService}. */
export interface UpstreamsConsoleDeps {
  identityProviders: Pick<IdentityProviderRepository, 'list' | 'findById' | 'create' | 'update'>;
  partners: Pick<PartnerRepository, 'findById'>;
  audit: Pick<AuditRepository, 'record'>;
  /** Reads the discovery document of unsaved settings: the method it leads to, or why not (`Upstreams.probe`). */
  probe(settings: UpstreamSettings): Promise<ProbeResult>;
  /** PUBLIC_URL: the origin of each provider's JWKS address. */
  publicUrl: string;
  now?: () => number;
}

/** The console's view of a stored provider; `publicUrl` makes its JWKS address. */
export function upstreamOf(p: IdentityProvider, publicUrl: string): Upstream {
  return {
    id: p.id,
    name: p.name,
    issuer: p.issuer,
    clientId: p.clientId,
    scopes: p.scopes,
    partnerId: p.partnerId ?? null,
    vendor: p.vendor,
    roles: p.roles,
    buttonLabel: p.buttonLabel ?? null,
    trustUpstreamMfa: p.trustUpstreamMfa,
    disabled: p.disabled,
    tokenAuthMethod: p.tokenAuthMethod ?? null,
    tokenAuthMethodInUse: p.tokenAuthMethodInUse ?? null,
    jwksUri: `${publicUrl.replace(/\/$/, '')}${upstreamJwksPath(p.id)}`,
  };
}

const normalisedScopes = (text: string) =>
  text
    .split(/[\s,]+/)
    .filter(Boolean)
    .join(' ');
const normalisedIssuer = (text: string) => text.replace(/\/$/, '');
const fail = (field: string, code: ErrorCode, values?: Record<string, string>) =>
  new UpstreamChangeError(field, formatErrorCode(code, values));

/**
 * The console's upstream providers (issue 52, ADR 0062) over the repository `admin idps` writes: the same checks
 * (id, scopes with openid, vendor roles only for vendor providers, a known partner), and the discovery document read
 * before a new issuer, client or secret is saved — its failure is the `issuer` field's error and nothing is stored.
 * The repository's change listener makes this replica discover again; other replicas re-read the provider on their
 * next sign-in through it (`Upstreams.get` compares the stored settings).
 */
export class UpstreamsConsoleService {
  private readonly now: () => number;

  constructor(private readonly deps: UpstreamsConsoleDeps) {
    this.now = deps.now ?? Date.now;
  }

  private view(p: IdentityProvider): Upstream {
    return upstreamOf(p, this.deps.publicUrl);
  }

  async list(): Promise<Upstream[]> {
    return (await this.deps.identityProviders.list()).map((p) => this.view(p));
  }

  private async record(
    action: string,
    subject: string,
    actor: ConsoleActor,
    reason: string | undefined,
    data: Record<string, unknown> = {},
  ) {
    await recordConsoleAction(
      this.deps.audit,
      { kind: `console.upstreams.${action}`, actor, subject, reason, data },
      this.now,
    );
  }

  private async checkPartner(partnerId: string | null | undefined): Promise<void> {
    if (partnerId && !(await this.deps.partners.findById(partnerId))) throw fail('partnerId', 'notFound');
  }

  /**
   * The discovery document read before saving: its failure is the `issuer` field's error; a method the provider
   * does not list is the `tokenAuthMethod` field's (ADR 0064).
   */
  private async checkDiscovery(settings: UpstreamSettings) {
    const result = await this.deps.probe(settings);
    if (result.ok) return;
    if (result.field === 'issuer') throw fail('issuer', 'upstreamDiscoveryFailed', { detail: result.detail });
    throw fail('tokenAuthMethod', 'upstreamTokenAuthMethod', {
      method: result.method,
      supported: result.supported.join(', ') || 'client_secret_basic',
    });
  }

  /** A client secret is needed unless the provider authenticates the gateway by its key (`private_key_jwt`). */
  private static needsSecret(method: string | null | undefined, inUse: string | null | undefined): boolean {
    return (method ?? inUse) !== 'private_key_jwt';
  }

  async create(request: CreateUpstreamRequest, actor: ConsoleActor): Promise<Upstream> {
    if (await this.deps.identityProviders.findById(request.id))
      throw new UpstreamChangeError('id', 'upstreamExists', 409);
    const vendor = request.vendor === true;
    const roles = [...new Set(request.roles ?? [])] as RoleName[];
    if (vendor !== roles.length > 0) throw fail('roles', 'upstreamRoles');
    await this.checkPartner(request.partnerId);
    const issuer = normalisedIssuer(request.issuer);
    const tokenAuthMethod = request.tokenAuthMethod ?? undefined;
    if (!request.clientSecret && UpstreamsConsoleService.needsSecret(tokenAuthMethod, undefined))
      throw fail('clientSecret', 'upstreamSecretRequired');
    const clientSecret = request.clientSecret ?? '';
    await this.checkDiscovery({ issuer, clientId: request.clientId, clientSecret, tokenAuthMethod });
    const created = await this.deps.identityProviders.create({
      id: request.id,
      name: request.name,
      issuer,
      clientId: request.clientId,
      clientSecret,
      ...(tokenAuthMethod ? { tokenAuthMethod } : {}),
      ...(request.scopes !== undefined ? { scopes: normalisedScopes(request.scopes) } : {}),
      ...(request.partnerId ? { partnerId: request.partnerId } : {}),
      vendor,
      roles,
      ...(request.buttonLabel ? { buttonLabel: request.buttonLabel } : {}),
      ...(request.trustUpstreamMfa !== undefined ? { trustUpstreamMfa: request.trustUpstreamMfa } : {}),
    });
    await this.record('created', created.id, actor, request.reason, { vendor });
    return this.view(created);
  }

  /** Changes the fields given; undefined when there is no such provider. */
  async update(request: UpdateUpstreamRequest, actor: ConsoleActor): Promise<Upstream | undefined> {
    const found = await this.deps.identityProviders.findById(request.id);
    if (!found) return undefined;
    const { id, reason, ...fields } = request;
    const changes: IdentityProviderUpdate = {};
    if (fields.name !== undefined) changes.name = fields.name;
    if (fields.issuer !== undefined) changes.issuer = normalisedIssuer(fields.issuer);
    if (fields.clientId !== undefined) changes.clientId = fields.clientId;
    if (fields.clientSecret !== undefined) changes.clientSecret = fields.clientSecret;
    if (fields.scopes !== undefined) changes.scopes = normalisedScopes(fields.scopes);
    if (fields.partnerId !== undefined) {
      await this.checkPartner(fields.partnerId);
      changes.partnerId = fields.partnerId;
    }
    if (fields.roles !== undefined) {
      const roles = [...new Set(fields.roles)] as RoleName[];
      if (found.vendor !== roles.length > 0) throw fail('roles', 'upstreamRoles');
      changes.roles = roles;
    }
    if (fields.buttonLabel !== undefined) changes.buttonLabel = fields.buttonLabel;
    if (fields.trustUpstreamMfa !== undefined) changes.trustUpstreamMfa = fields.trustUpstreamMfa;
    if (fields.tokenAuthMethod !== undefined) changes.tokenAuthMethod = fields.tokenAuthMethod;
    const method =
      changes.tokenAuthMethod !== undefined ? changes.tokenAuthMethod : (found.tokenAuthMethod ?? null);
    if (
      changes.tokenAuthMethod !== undefined &&
      !(changes.clientSecret ?? found.clientSecret) &&
      UpstreamsConsoleService.needsSecret(method, undefined)
    )
      throw fail('clientSecret', 'upstreamSecretRequired');
    if (
      changes.issuer !== undefined ||
      changes.clientId !== undefined ||
      changes.clientSecret !== undefined ||
      changes.tokenAuthMethod !== undefined
    )
      await this.checkDiscovery({
        issuer: changes.issuer ?? found.issuer,
        clientId: changes.clientId ?? found.clientId,
        clientSecret: changes.clientSecret ?? found.clientSecret,
        tokenAuthMethod: method ?? undefined,
      });
    const updated = await this.deps.identityProviders.update(id, changes);
    // Never a secret in the audit: only that it changed.
    await this.record('updated', id, actor, reason, { changed: Object.keys(changes) });
    return updated && this.view(updated);
  }

  /** Disables (or enables again) a provider; undefined when there is no such provider. */
  async setDisabled(
    id: string,
    disabled: boolean,
    actor: ConsoleActor,
    reason: string | undefined,
  ): Promise<Upstream | undefined> {
    if (!(await this.deps.identityProviders.findById(id))) return undefined;
    const updated = await this.deps.identityProviders.update(id, { disabled });
    await this.record(disabled ? 'disabled' : 'enabled', id, actor, reason);
    return updated && this.view(updated);
  }
}
