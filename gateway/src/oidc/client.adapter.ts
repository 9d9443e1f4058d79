/**
 * Our `oidc_clients` table as oidc-provider's `Client` kind. Clients are managed with the admin CLI, so this
 * adapter only reads; oidc-provider validates and caches the metadata it returns.
 */
import type { AdapterFactory, AdapterPayload, ClientMetadata } from 'oidc-provider';
import type { FindOidcClient, OidcClientRecord } from './types.js';

/** Maps a stored client to oidc-provider metadata; public clients (no secret) use PKCE with no client auth. */
export function toClientMetadata(client: OidcClientRecord): ClientMetadata {
  const confidential = typeof client.clientSecret === 'string' && client.clientSecret.length > 0;
  return {
    client_id: client.clientId,
    ...(client.name ? { client_name: client.name } : {}),
    ...(confidential ? { client_secret: client.clientSecret as string } : {}),
    token_endpoint_auth_method: confidential ? 'client_secret_basic' : 'none',
    redirect_uris: [...client.redirectUris],
    post_logout_redirect_uris: [...(client.postLogoutRedirectUris ?? [])],
    ...(client.backchannelLogoutUri
      ? { backchannel_logout_uri: client.backchannelLogoutUri, backchannel_logout_session_required: true }
      : {}),
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    first_party: client.firstParty !== false,
  };
}

/**
 * Adapter factory that serves the `Client` kind from the store's clients (read on every lookup, so a client added
 * with the admin CLI works without a restart), and every other kind from `inner`.
 */
export function withStoreClients(inner: AdapterFactory, findClient: FindOidcClient): AdapterFactory {
  return (kind: string) => {
    if (kind !== 'Client') return inner(kind);
    const readOnly = (): Promise<void> =>
      Promise.reject(new Error('OIDC clients are managed with the admin CLI'));
    return {
      async find(id: string): Promise<AdapterPayload | undefined> {
        const client = await findClient(id);
        return client ? toClientMetadata(client) : undefined;
      },
      findByUid: () => Promise.resolve(undefined),
      findByUserCode: () => Promise.resolve(undefined),
      upsert: readOnly,
      consume: readOnly,
      destroy: readOnly,
      revokeByGrantId: () => Promise.resolve(),
    };
  };
}
