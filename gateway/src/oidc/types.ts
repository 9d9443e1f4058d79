/**
 * What the OIDC provider needs from the rest of the gateway, as small interfaces so `oidc/` depends on the shape and
 * not on the store or identity modules (ARCHITECTURE.md "The server": `oidc` wires oidc-provider to our sessions and
 * store). The gateway's `createApp` passes the real implementations; tests pass in-process ones.
 */
import type { Request } from 'express';
import type { OidcPayloadTable } from '../store/schema.js';
import type { SignedInAccountInfo } from '../identity/session/session-auth.service.js';

/** Row of the `oidc_payloads` table, as the store's migrations create it (epoch milliseconds, as every store time). */
export type OidcPayloadsTable = OidcPayloadTable;

/** The slice of the store's Kysely database that this module reads and writes. */
export interface OidcDatabase {
  oidc_payloads: OidcPayloadsTable;
}

/** Claims of an account, as released to clients (scopes: openid, profile, email, roles). */
export interface OidcAccountClaims {
  /** Stable subject identifier: the user's id. */
  sub: string;
  name?: string | undefined;
  email?: string | undefined;
  email_verified?: boolean | undefined;
  /** Role names of SPEC.md §3 (EMPLOYEE, MANAGER, …). */
  roles?: readonly string[] | undefined;
  /** The customer the user works in (chosen at sign-in, or the only one), as `{ id, name }`. */
  customer?: { id: string; name: string } | undefined;
}

/**
 * Looks an account up by id, for the customer of the token's grant when it has one; undefined when the account no
 * longer exists, is disabled, or no longer belongs to that customer (the token is then refused: S37).
 */
export type FindOidcAccount = (
  accountId: string,
  customerId?: string,
) => Promise<OidcAccountClaims | undefined>;

/**
 * A sign-in the gateway session holds: the identity layer's type, of which the provider needs the id and, when
 * known, the authentication time (prompt=login, max_age, and whether an OIDC session still belongs to it), the
 * methods, remember-me and the site session's absolute end (the OIDC cookie's lifetime).
 */
export type SignedInAccount = Pick<SignedInAccountInfo, 'accountId'> &
  Partial<
    Pick<
      SignedInAccountInfo,
      'authTime' | 'amr' | 'persistent' | 'expiresAt' | 'customerId' | 'customerSelectedAt' | 'siteSessionKey'
    >
  >;

/** Reads the gateway session of a request: the signed-in account, or undefined when no one is signed in. */
export type GetSignedInAccount = (
  req: Request,
) => Promise<SignedInAccount | string | undefined> | SignedInAccount | string | undefined;

/** An OIDC client as the store keeps it (the gateway's `clients` repository maps its rows to this). */
export interface OidcClientRecord {
  clientId: string;
  /** Display name shown on the sign-out pages. */
  name?: string | undefined;
  /** Plain secret for confidential clients (decrypted by the repository); absent/null for public PKCE clients. */
  clientSecret?: string | null | undefined;
  redirectUris: readonly string[];
  postLogoutRedirectUris?: readonly string[] | undefined;
  backchannelLogoutUri?: string | null | undefined;
  /** First-party clients skip consent. Every client is first-party unless it says otherwise. */
  firstParty?: boolean | undefined;
}

/** Finds one client by id (the `Client` kind of the adapter reads through it, so a new client needs no restart). */
export type FindOidcClient = (clientId: string) => Promise<OidcClientRecord | undefined>;
