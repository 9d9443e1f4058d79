import * as oidc from 'openid-client';
import type { Logger } from 'pino';
import { UPSTREAM_TOKEN_AUTH_METHODS, type UpstreamTokenAuthMethod } from 'shared-contracts/console';
import type {
  IdentityProvider,
  IdentityProviderRepository,
} from '../../store/identity-provider.repository.js';

/** First retry of a failed discovery; doubles up to {@link MAX_RETRY_MS}. */
const FIRST_RETRY_MS = 5_000;
const MAX_RETRY_MS = 5 * 60_000;
/** A discovery document is re-read after this long (keys and endpoints may move). */
const DISCOVERY_TTL_MS = 60 * 60_000;

/** One upstream, discovered: its configuration for openid-client and its stored settings. */
export interface DiscoveredUpstream {
  provider: IdentityProvider;
  config: oidc.Configuration;
  /** How the gateway authenticates at its token endpoint (ADR 0064). */
  tokenAuthMethod: UpstreamTokenAuthMethod;
}

/** The settings a discovery needs (a stored provider, or the console's and the CLI's before they save). */
export type UpstreamSettings = Pick<
  IdentityProvider,
  'issuer' | 'clientId' | 'clientSecret' | 'tokenAuthMethod'
>;

/** What {@link Upstreams.probe} found: the method to use, or why the settings cannot work. */
export type ProbeResult =
  | { ok: true; tokenAuthMethod: UpstreamTokenAuthMethod; supported: string[] | undefined }
  | { ok: false; field: 'issuer'; detail: string }
  | { ok: false; field: 'tokenAuthMethod'; method: UpstreamTokenAuthMethod; supported: string[] };

/**
 * The token endpoint authentication method for a provider (ADR 0064): the operator's choice when made, else the
 * first of ours (`client_secret_post`, `private_key_jwt`, `client_secret_basic`) that the provider's discovery lists
 * in `token_endpoint_auth_methods_supported`; a provider that lists none is read as RFC 8414's default,
 * `client_secret_basic`. An operator's choice the provider does not list is refused (`unsupported`).
 */
export function chooseTokenAuthMethod(
  chosen: UpstreamTokenAuthMethod | undefined,
  supported: readonly string[] | undefined,
): { method: UpstreamTokenAuthMethod } | { unsupported: UpstreamTokenAuthMethod } {
  const listed = supported && supported.length > 0 ? supported : ['client_secret_basic'];
  if (chosen) return listed.includes(chosen) ? { method: chosen } : { unsupported: chosen };
  return { method: UPSTREAM_TOKEN_AUTH_METHODS.find((m) => listed.includes(m)) ?? 'client_secret_basic' };
}

function supportedMethods(metadata: oidc.ServerMetadata): string[] | undefined {
  const list = metadata.token_endpoint_auth_methods_supported;
  return Array.isArray(list) ? list.filter((m): m is string => typeof m === 'string') : undefined;
}

/** What {@link Upstreams} needs. */
export interface UpstreamsDeps {
  providers: IdentityProviderRepository;
  logger?: Pick<Logger, 'warn' | 'info'> | undefined;
  now?: () => number;
  /** Discovery's timeout in seconds (openid-client's default is 30). */
  timeoutSeconds?: number;
}

/**
 * Plain http is allowed for loopback issuers only (development, the tests' upstream); every other issuer must be
 * https, which openid-client enforces.
 */
function isLoopback(issuer: string): boolean {
  const host = new URL(issuer).hostname;
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
}

/** The provider's discovery document (`<issuer>/.well-known/openid-configuration`). */
async function readMetadata(
  settings: Pick<IdentityProvider, 'issuer' | 'clientId'>,
  timeoutSeconds = 10,
): Promise<oidc.ServerMetadata> {
  const config = await oidc.discovery(new URL(settings.issuer), settings.clientId, undefined, oidc.None(), {
    timeout: timeoutSeconds,
    ...(isLoopback(settings.issuer) ? { execute: [oidc.allowInsecureRequests] } : {}),
  });
  return config.serverMetadata();
}

/**
 * Reads the discovery document of settings not stored yet (the console and `admin idps` check them before saving,
 * ADR 0062 and 0064): the token endpoint method that will be used, or why the settings cannot work — the issuer
 * does not answer, or the provider does not list the method the operator chose.
 */
export async function probeUpstream(
  settings: UpstreamSettings,
  timeoutSeconds?: number,
): Promise<ProbeResult> {
  let metadata: oidc.ServerMetadata;
  try {
    metadata = await readMetadata(settings, timeoutSeconds);
  } catch (error) {
    return {
      ok: false,
      field: 'issuer',
      detail: error instanceof Error ? error.message.slice(0, 300) : 'discovery failed',
    };
  }
  const supported = supportedMethods(metadata);
  const choice = chooseTokenAuthMethod(settings.tokenAuthMethod, supported);
  if ('unsupported' in choice)
    return { ok: false, field: 'tokenAuthMethod', method: choice.unsupported, supported: supported ?? [] };
  return { ok: true, tokenAuthMethod: choice.method, supported };
}

/**
 * The configured external OpenID Connect providers as openid-client configurations (ADR 0018). Discovery runs at
 * start for every provider and again when the admin CLI changes one (the repository's change listener, or the
 * settings seen to differ from the ones discovered); a provider that does not answer is logged and retried with a
 * growing delay, and never stops the gateway from starting. A sign-in through it meanwhile tries once more.
 */
export class Upstreams {
  private readonly cache = new Map<
    string,
    { key: string; at: number; pending?: Promise<DiscoveredUpstream | undefined>; found?: DiscoveredUpstream }
  >();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly deps: UpstreamsDeps) {
    this.now = deps.now ?? Date.now;
    deps.providers.onChange((id) => {
      this.cache.delete(id);
      void this.discoverInBackground(id, FIRST_RETRY_MS);
    });
  }

  /** Discovers every configured provider in the background (start-up); failures are logged and retried. */
  start(): void {
    this.deps.providers
      .list()
      .then((providers) => {
        for (const p of providers) void this.discoverInBackground(p.id, FIRST_RETRY_MS);
      })
      .catch((error: unknown) => this.deps.logger?.warn({ err: error }, 'identity providers not readable'));
  }

  /** Stops the retry timers. */
  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private async discoverInBackground(id: string, delay: number): Promise<void> {
    const timer = this.timers.get(id);
    if (timer) clearTimeout(timer);
    this.timers.delete(id);
    const found = await this.get(id).catch(() => undefined);
    const provider = await this.deps.providers.findById(id).catch(() => undefined);
    if (found || !provider || provider.disabled || this.closed) return;
    const retry = setTimeout(
      () => void this.discoverInBackground(id, Math.min(delay * 2, MAX_RETRY_MS)),
      delay,
    );
    retry.unref();
    this.timers.set(id, retry);
  }

  /** The discovered provider, discovering it now when not cached; undefined when unknown or unreachable. */
  async get(id: string): Promise<DiscoveredUpstream | undefined> {
    const provider = await this.deps.providers.findById(id);
    // A provider disabled in the console (ADR 0062) signs nobody in, whichever path asks.
    if (!provider || provider.disabled) {
      this.cache.delete(id);
      return undefined;
    }
    const key = JSON.stringify([
      provider.issuer,
      provider.clientId,
      provider.clientSecret,
      provider.tokenAuthMethod ?? null,
    ]);
    const cached = this.cache.get(id);
    if (cached && cached.key === key) {
      if (cached.pending) return cached.pending;
      if (cached.found && this.now() - cached.at < DISCOVERY_TTL_MS) return { ...cached.found, provider };
    }
    const pending = this.discover(provider).then(
      async (found) => {
        this.cache.set(id, { key, at: this.now(), found });
        if (found.tokenAuthMethod !== provider.tokenAuthMethodInUse)
          await this.deps.providers.recordMethodInUse(id, found.tokenAuthMethod);
        this.deps.logger?.info(
          { provider: id, issuer: provider.issuer, tokenAuthMethod: found.tokenAuthMethod },
          'identity provider discovered',
        );
        return found;
      },
      (error: unknown) => {
        this.cache.delete(id);
        this.deps.logger?.warn(
          { provider: id, issuer: provider.issuer, err: error },
          'identity provider discovery failed; retrying later',
        );
        return undefined;
      },
    );
    this.cache.set(id, { key, at: this.now(), pending });
    return pending;
  }

  /** {@link probeUpstream} with this gateway's discovery timeout. */
  probe(settings: UpstreamSettings): Promise<ProbeResult> {
    return probeUpstream(settings, this.deps.timeoutSeconds);
  }

  /**
   * The client authentication openid-client applies at the token endpoint for `method`. The client assertion's
   * `aud` is the token endpoint's URL, as OpenID Connect Core §9 says it should be (openid-client puts the issuer
   * there): providers in the wild (glewlwyd among them) accept nothing else.
   */
  private async clientAuth(
    provider: IdentityProvider,
    method: UpstreamTokenAuthMethod,
    metadata: oidc.ServerMetadata,
  ): Promise<oidc.ClientAuth> {
    if (method === 'client_secret_post') return oidc.ClientSecretPost(provider.clientSecret);
    if (method === 'client_secret_basic') return oidc.ClientSecretBasic(provider.clientSecret);
    const pair = await this.deps.providers.signingKey(provider.id);
    if (!pair) throw new Error(`identity provider ${provider.id} has no signing key`);
    const key = await crypto.subtle.importKey(
      'jwk',
      pair.privateJwk,
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const audience = metadata.token_endpoint ?? metadata.issuer;
    return oidc.PrivateKeyJwt(
      { key, kid: pair.privateJwk.kid },
      {
        [oidc.modifyAssertion]: (_header, payload) => {
          payload.aud = audience;
        },
      },
    );
  }

  private async discover(provider: IdentityProvider): Promise<DiscoveredUpstream> {
    const metadata = await readMetadata(provider, this.deps.timeoutSeconds);
    const choice = chooseTokenAuthMethod(provider.tokenAuthMethod, supportedMethods(metadata));
    // A choice the provider no longer lists was refused when saved; used as chosen, its error tells the rest.
    const tokenAuthMethod = 'method' in choice ? choice.method : choice.unsupported;
    const config = new oidc.Configuration(
      metadata,
      provider.clientId,
      { token_endpoint_auth_method: tokenAuthMethod },
      await this.clientAuth(provider, tokenAuthMethod, metadata),
    );
    config.timeout = this.deps.timeoutSeconds ?? 10;
    if (isLoopback(provider.issuer)) oidc.allowInsecureRequests(config);
    return { provider, config, tokenAuthMethod };
  }
}
