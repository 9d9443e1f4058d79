import * as oidc from 'openid-client';
import type { Logger } from 'pino';
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
    const key = JSON.stringify([provider.issuer, provider.clientId, provider.clientSecret]);
    const cached = this.cache.get(id);
    if (cached && cached.key === key) {
      if (cached.pending) return cached.pending;
      if (cached.found && this.now() - cached.at < DISCOVERY_TTL_MS) return { ...cached.found, provider };
    }
    const pending = this.discover(provider).then(
      (config) => {
        const found = { provider, config };
        this.cache.set(id, { key, at: this.now(), found });
        this.deps.logger?.info({ provider: id, issuer: provider.issuer }, 'identity provider discovered');
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

  /**
   * Reads the discovery document of settings not stored yet (the console checks them when saved, ADR 0062):
   * undefined when it answers, else the reason it did not.
   */
  async probe(
    provider: Pick<IdentityProvider, 'issuer' | 'clientId' | 'clientSecret'>,
  ): Promise<string | undefined> {
    try {
      await this.discover(provider);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message.slice(0, 300) : 'discovery failed';
    }
  }

  private discover(
    provider: Pick<IdentityProvider, 'issuer' | 'clientId' | 'clientSecret'>,
  ): Promise<oidc.Configuration> {
    return oidc.discovery(
      new URL(provider.issuer),
      provider.clientId,
      undefined,
      oidc.ClientSecretBasic(provider.clientSecret),
      {
        timeout: this.deps.timeoutSeconds ?? 10,
        ...(isLoopback(provider.issuer) ? { execute: [oidc.allowInsecureRequests] } : {}),
      },
    );
  }
}
