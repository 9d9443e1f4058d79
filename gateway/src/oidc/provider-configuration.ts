/**
 * oidc-provider's configuration for the identity service: authorization code + PKCE S256 only, rotating refresh
 * tokens, the claims our scopes release, lifetimes, cookies, and where the browser goes for sign-in and sign-out
 * (ARCHITECTURE.md "OpenID Connect for the applications").
 */
import { createHmac } from 'node:crypto';
import type { AdapterFactory, Configuration, ErrorOut, KoaContextWithOIDC } from 'oidc-provider';
import { errors } from 'oidc-provider';
import { customerOfToken, loadGrantForSiteCustomer, policyWithSelectAccount } from './grant-customer.js';
import { rpInitiatedLogoutFeature } from './rp-initiated-logout.js';
import { sessionTtl, siteSessionReader, type SiteSessionReader } from './site-session.js';
import type { FindOidcAccount, GetSignedInAccount } from './types.js';
import { escapeHtmlText, withReturnUrl } from 'shared-contracts';
import { cookieName, providerCookieOptions } from '../infra/cookie-attributes.js';

/** Path of every OIDC endpoint; the discovery document lists them (issuer = PUBLIC_URL, no path). */
export const OIDC_ROUTES = {
  authorization: '/connect/authorize',
  token: '/connect/token',
  userinfo: '/connect/userinfo',
  end_session: '/connect/endsession',
  jwks: '/connect/jwks',
  revocation: '/connect/revocation',
  introspection: '/connect/introspect',
  pushed_authorization_request: '/connect/par',
  registration: '/connect/register',
  code_verification: '/connect/device',
  device_authorization: '/connect/deviceauth',
  backchannel_authentication: '/connect/ciba',
  challenge: '/connect/challenge',
} as const;

/** Scopes the provider knows; `customer` travels with `roles` because both say what the user may act on. */
export const OIDC_SCOPES = ['openid', 'profile', 'email', 'roles', 'offline_access'] as const;

/** Lifetimes in seconds. The authorization code lives at most 60 s (S36). */
export interface OidcLifetimes {
  authorizationCode: number;
  accessToken: number;
  idToken: number;
  refreshToken: number;
  grant: number;
  session: number;
  interaction: number;
}

const DEFAULT_LIFETIMES: OidcLifetimes = {
  authorizationCode: 60,
  accessToken: 10 * 60,
  idToken: 60 * 60,
  refreshToken: 14 * 24 * 3600,
  grant: 14 * 24 * 3600,
  session: 12 * 3600,
  interaction: 60 * 60,
};

/** The OIDC session's lifetime in seconds for these options (the configured one, else 12 h). */
export function sessionLifetimeSeconds(options: Pick<OidcConfigurationOptions, 'lifetimes'>): number {
  return options.lifetimes?.session ?? DEFAULT_LIFETIMES.session;
}

/** What {@link buildOidcConfiguration} reads; `OidcProviderOptions` (the life cycle's options) includes it. */
export interface OidcConfigurationOptions {
  /** PUBLIC_URL: the issuer and the origin of every endpoint. */
  issuer: string;
  /** SECRET_KEY; the cookie signing key is derived from it. Several: the first signs, all verify (rotation). */
  secretKey: Buffer | readonly Buffer[];
  findAccount: FindOidcAccount;
  getSignedInAccount: GetSignedInAccount;
  /** Sign-in page (default `/account/login`); the interaction passes `returnUrl=/interaction/<uid>`. */
  loginPath?: string | undefined;
  /** Customer selection page (default `/account/select`), for `prompt=select_account`; receives `returnUrl`. */
  selectCustomerPath?: string | undefined;
  /** Sign-out confirmation page (default `/account/logout`); receives `logoutId`. */
  logoutPath?: string | undefined;
  /** Page after sign-out (default `/account/loggedout`). */
  loggedOutPath?: string | undefined;
  lifetimes?: Partial<OidcLifetimes> | undefined;
  /**
   * Let the provider's outgoing requests (back-channel logout) reach loopback and private addresses. oidc-provider
   * blocks them against SSRF; our only outgoing URLs are back-channel URIs that operators register with the admin
   * CLI (dynamic registration is off). Default: true when the issuer is on localhost/127.0.0.1 (development and the
   * demo portal on localhost:4000), false otherwise.
   */
  allowPrivateNetworkFetch?: boolean | undefined;
  /**
   * Records an error the provider would render (a wrong redirect_uri, an unknown client...) and returns the
   * `/error/...?errorId=` page to send the browser to; undefined (or a failure) falls back to the plain page.
   */
  recordError?:
    ((ctx: KoaContextWithOIDC, out: ErrorOut, error: Error) => Promise<string | undefined>) | undefined;
}

/** Default sign-in page, shared with the interaction handler. */
export const DEFAULT_LOGIN_PATH = '/account/login';
/** Default customer selection page (`prompt=select_account`), shared with the interaction handler. */
export const DEFAULT_SELECT_CUSTOMER_PATH = '/account/select';

function deriveCookieKeys(secretKey: Buffer | readonly Buffer[]): string[] {
  const keys = Buffer.isBuffer(secretKey) ? [secretKey] : [...secretKey];
  // A derived key, so the raw SECRET_KEY used for sessions and anti-forgery never signs a second kind of value.
  return keys.map((key) => createHmac('sha256', key).update('oidc-provider cookies v1').digest('base64url'));
}

/**
 * The only response mode: the sign-in site's CSP (`form-action 'self'`) blocks form_post's auto-submitted form to
 * the client, and the applications read the code from the query.
 */
export const RESPONSE_MODES = ['query'] as const;

/** Builds the provider's configuration (exported for review and tests; the gateway calls createOidcProvider). */
export function buildOidcConfiguration(
  options: OidcConfigurationOptions,
  adapter: AdapterFactory,
  keys: Configuration['jwks'],
  site: SiteSessionReader = siteSessionReader(options.getSignedInAccount),
): Configuration {
  const lifetimes = { ...DEFAULT_LIFETIMES, ...options.lifetimes };
  const loginPath = options.loginPath ?? DEFAULT_LOGIN_PATH;
  const selectPath = options.selectCustomerPath ?? DEFAULT_SELECT_CUSTOMER_PATH;
  const logoutPath = options.logoutPath ?? '/account/logout';
  const loggedOutPath = options.loggedOutPath ?? '/account/loggedout';
  const issuerUrl = new URL(options.issuer);
  const secure = issuerUrl.protocol === 'https:';
  const allowPrivate =
    options.allowPrivateNetworkFetch ?? ['localhost', '127.0.0.1', '[::1]'].includes(issuerUrl.hostname);

  return {
    adapter,
    jwks: keys,
    routes: OIDC_ROUTES,
    scopes: [...OIDC_SCOPES],
    claims: {
      openid: ['sub'],
      profile: ['name'],
      email: ['email', 'email_verified'],
      roles: ['roles', 'customer'],
    },
    // The relying parties read name and roles from the ID token, not only from userinfo.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    // PKCE for every client, confidential ones too (S36); oidc-provider 9 supports only S256.
    pkce: { required: () => true },
    // Rotate on every use; a reused refresh token revokes its grant (oidc-provider + our atomic consume).
    rotateRefreshToken: true,
    // Exact redirect_uri always (S32): never fill it in from the registration.
    allowOmittingSingleRegisteredRedirectUri: false,
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'RS256',
    },
    // Confidential clients are registered for client_secret_basic (client.adapter.ts). oidc-provider lets a client
    // registered for one secret method use the other; offering only basic makes a secret in the body count as no
    // authentication, so such a client is refused (invalid_client) unless it uses its registered method.
    clientAuthMethods: ['none', 'client_secret_basic'],
    extraParams: {
      // Checked after the redirect_uri was matched, so the refusal goes to the client in the query.
      response_mode(ctx, value) {
        if (value === undefined || (RESPONSE_MODES as readonly unknown[]).includes(value)) return;
        ctx.oidc.params!.response_mode = undefined;
        throw new errors.UnsupportedResponseMode(`response_mode must be ${RESPONSE_MODES.join(' or ')}`);
      },
    },
    extraClientMetadata: { properties: ['first_party'] },
    async findAccount(ctx, sub, token) {
      // A token's claims are those of its grant's customer (S37); undefined (no token) refuses it.
      const claims = await options.findAccount(sub, await customerOfToken(ctx, token));
      if (!claims) return undefined;
      return {
        accountId: sub,
        claims: () => {
          const { roles, ...rest } = claims;
          return { ...rest, ...(roles ? { roles: [...roles] } : {}), sub };
        },
      };
    },
    loadExistingGrant: loadGrantForSiteCustomer(site),
    interactions: {
      policy: policyWithSelectAccount(),
      async url(ctx, interaction) {
        const resume = `/interaction/${interaction.uid}`;
        // Switching customer: the selection page, which comes back here (handleInteraction decides when it is done).
        if (interaction.prompt.name === 'select_account') return withReturnUrl(selectPath, resume);
        const signedIn = await site.read(ctx.req);
        const forced = interaction.prompt.reasons.some((r) => r === 'login_prompt' || r === 'max_age');
        // A remembered (remember-me) sign-in can be up to 30 days old: its application sign-ins pass the sign-in
        // page, whose SilentLogin signs in without typing once the steps that may have lapsed since (a remembered
        // browser's second factor, an expired password) are checked again (ADR 0020).
        if (signedIn?.persistent === true && interaction.prompt.name === 'login')
          return withReturnUrl(loginPath, resume);
        // Already signed in on the sign-in site and no fresh sign-in demanded: single sign-on, skip the form.
        if (signedIn && !forced) return resume;
        return withReturnUrl(loginPath, resume);
      },
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: rpInitiatedLogoutFeature({ logoutPath, loggedOutPath }),
    },
    ttl: {
      AuthorizationCode: lifetimes.authorizationCode,
      AccessToken: lifetimes.accessToken,
      IdToken: lifetimes.idToken,
      RefreshToken: lifetimes.refreshToken,
      Grant: lifetimes.grant,
      // At most the lifetime, and never beyond the site session's absolute end (ADR 0006).
      Session: sessionTtl(site, lifetimes.session),
      Interaction: lifetimes.interaction,
    },
    cookies: {
      keys: deriveCookieKeys(options.secretKey),
      names: {
        session: cookieName({ secure }, 'idp.oidc.session'),
        interaction: 'idp.oidc.interaction',
        resume: 'idp.oidc.resume',
      },
      // No maxAge: oidc-provider adds an expiry only to a session signed in with remember-me (`remember` in the
      // interaction result); any other OIDC session cookie ends with the browser, like the site's own (ADR 0006).
      long: providerCookieOptions('/'),
      // The interaction cookie must reach /interaction/<uid>, not the sign-in page interactions.url points at.
      short: providerCookieOptions('/interaction/'),
    },
    fetch: (url, init) => {
      // Dropping oidc-provider's SSRF-checking dispatcher is the switch; see allowPrivateNetworkFetch.
      if (!allowPrivate) return fetch(url, init);
      const { dispatcher: _dispatcher, ...rest } = init as RequestInit & { dispatcher?: unknown };
      return fetch(url, rest);
    },
    async renderError(ctx, out, error) {
      // A person's browser landed here: the error page of the sign-in site shows a reference instead of raw codes.
      const page = await options.recordError?.(ctx, out, error).catch(() => undefined);
      if (page) {
        ctx.redirect(page);
        ctx.status = 303;
        return;
      }
      ctx.type = 'html';
      const rows = Object.entries(out)
        .map(([key, value]) => `<dt>${escapeHtmlText(key)}</dt><dd>${escapeHtmlText(String(value))}</dd>`)
        .join('');
      ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in error</title></head><body><h1>Sign-in error</h1><dl>${rows}</dl></body></html>`;
    },
  };
}
