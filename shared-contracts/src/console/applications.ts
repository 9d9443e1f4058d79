import { z } from 'zod/mini';

/**
 * The console's Applications page (issue 52, ADR 0062): OIDC clients (ConsoleApplications, CreateApplication,
 * UpdateApplication, DisableApplication, RotateApplicationSecret) and upstream providers (ConsoleUpstreams,
 * CreateUpstream, UpdateUpstream, DisableUpstream). A client secret is made by the gateway and answered once, at
 * creation and on rotation; it is never listed.
 */

const reason = z.optional(z.string().check(z.maxLength(500)));

/** True for an absolute http(s) address without user info or fragment (a redirect or logout URI, as the CLI checks). */
export function isRegistrableUri(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.hash === '' &&
    !text.includes('#') &&
    url.username === '' &&
    url.password === '' &&
    text.length <= 2048
  );
}

const uri = z.string().check(z.refine(isRegistrableUri, { error: 'applicationRedirectUri' }));
const uris = z.array(uri).check(z.maxLength(50));

/** A client id: letters, digits, `.`, `_`, `-` (it appears in URLs and logs). */
export const applicationIdSchema = z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/));

/** One application (OIDC client) as the console lists it: never its secret. */
export const applicationSchema = z.object({
  clientId: z.string(),
  name: z.string(),
  /** A confidential client (has a secret) or a public one (PKCE only). */
  confidential: z.boolean(),
  redirectUris: z.array(z.string()),
  postLogoutRedirectUris: z.array(z.string()),
  backchannelLogoutUri: z.nullable(z.string()),
  initiateLoginUri: z.nullable(z.string()),
  firstParty: z.boolean(),
  disabled: z.boolean(),
});
/** One application. */
export type Application = z.infer<typeof applicationSchema>;

/** Answer of `ConsoleApplications` (GET). */
export const consoleApplicationsSchema = z.object({ applications: z.array(applicationSchema) });
/** Answer of `ConsoleApplications`. */
export type ConsoleApplications = z.infer<typeof consoleApplicationsSchema>;

const name = z.string().check(z.trim(), z.minLength(1), z.maxLength(200));

/** `CreateApplication`: a confidential client gets a generated secret, answered once. */
export const createApplicationRequestSchema = z.object({
  clientId: applicationIdSchema,
  name,
  confidential: z.boolean(),
  redirectUris: uris.check(z.minLength(1)),
  postLogoutRedirectUris: z.optional(uris),
  backchannelLogoutUri: z.optional(z.nullable(uri)),
  initiateLoginUri: z.optional(z.nullable(uri)),
  firstParty: z.optional(z.boolean()),
  reason,
});
/** Request of `CreateApplication`. */
export type CreateApplicationRequest = z.infer<typeof createApplicationRequestSchema>;

/** `UpdateApplication`: changes only the fields given (`null` clears an optional address). */
export const updateApplicationRequestSchema = z.object({
  clientId: applicationIdSchema,
  name: z.optional(name),
  redirectUris: z.optional(uris.check(z.minLength(1))),
  postLogoutRedirectUris: z.optional(uris),
  backchannelLogoutUri: z.optional(z.nullable(uri)),
  initiateLoginUri: z.optional(z.nullable(uri)),
  firstParty: z.optional(z.boolean()),
  reason,
});
/** Request of `UpdateApplication`. */
export type UpdateApplicationRequest = z.infer<typeof updateApplicationRequestSchema>;

/** `DisableApplication`: `disabled: false` enables it again. */
export const disableApplicationRequestSchema = z.object({
  clientId: applicationIdSchema,
  disabled: z.optional(z.boolean()),
  reason,
});
/** Request of `DisableApplication`. */
export type DisableApplicationRequest = z.infer<typeof disableApplicationRequestSchema>;

/** `RotateApplicationSecret`: a new secret; the old one is refused at the token endpoint from now on. */
export const rotateApplicationSecretRequestSchema = z.object({ clientId: applicationIdSchema, reason });
/** Request of `RotateApplicationSecret`. */
export type RotateApplicationSecretRequest = z.infer<typeof rotateApplicationSecretRequestSchema>;

/** Answer of `CreateApplication` and `RotateApplicationSecret`: the secret shown once (null for a public client). */
export const applicationWithSecretSchema = z.object({
  application: applicationSchema,
  clientSecret: z.nullable(z.string()),
});
/** Answer with the one-time secret. */
export type ApplicationWithSecret = z.infer<typeof applicationWithSecretSchema>;

/** The vendor roles a vendor provider's accounts may get (SPEC.md §6). */
export const UPSTREAM_VENDOR_ROLES = ['VENDOR_SUPPORT', 'VENDOR_OPERATIONS', 'VENDOR_PARTNER'] as const;

/**
 * How the gateway authenticates at an upstream's token endpoint (issue 53, ADR 0064). Unset: the first of these the
 * provider's discovery lists, `client_secret_basic` last (RFC 8414 `token_endpoint_auth_methods_supported`).
 */
export const UPSTREAM_TOKEN_AUTH_METHODS = [
  'client_secret_post',
  'private_key_jwt',
  'client_secret_basic',
] as const;
/** One token endpoint authentication method. */
export type UpstreamTokenAuthMethod = (typeof UPSTREAM_TOKEN_AUTH_METHODS)[number];

/** An upstream provider's id: part of its callback address (`/signin/<id>/callback`), as `admin idps add` checks. */
export const upstreamIdSchema = z.string().check(z.regex(/^[a-z0-9][a-z0-9_-]{0,62}$/));

/** One upstream provider (external OpenID Connect provider) as the console lists it: never its client secret. */
export const upstreamSchema = z.object({
  id: z.string(),
  name: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  scopes: z.string(),
  /** The partner whose sign-in page offers it; null: every partner's. */
  partnerId: z.nullable(z.string()),
  /** A vendor's company provider (vendor sign-in only) rather than a login provider. */
  vendor: z.boolean(),
  roles: z.array(z.string()),
  buttonLabel: z.nullable(z.string()),
  trustUpstreamMfa: z.boolean(),
  disabled: z.boolean(),
  /** The method chosen by the operator; null: chosen from the provider's discovery. */
  tokenAuthMethod: z.nullable(z.enum(UPSTREAM_TOKEN_AUTH_METHODS)),
  /** The method in use, as the last discovery decided it; null while the provider was not discovered. */
  tokenAuthMethodInUse: z.nullable(z.enum(UPSTREAM_TOKEN_AUTH_METHODS)),
  /** Where the provider reads this upstream's public keys (`private_key_jwt`): the address to register with it. */
  jwksUri: z.string(),
});
/** One upstream provider. */
export type Upstream = z.infer<typeof upstreamSchema>;

/** Answer of `ConsoleUpstreams` (GET). */
export const consoleUpstreamsSchema = z.object({ upstreams: z.array(upstreamSchema) });
/** Answer of `ConsoleUpstreams`. */
export type ConsoleUpstreams = z.infer<typeof consoleUpstreamsSchema>;

/** Space- or comma-separated scope names including `openid` (the CLI's check). */
const scopes = z.string().check(
  z.refine(
    (text) => {
      const list = text.split(/[\s,]+/).filter(Boolean);
      return list.includes('openid') && list.every((s) => /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s));
    },
    { error: 'invalidValue' },
  ),
);
const upstreamSecret = z.string().check(z.minLength(1), z.maxLength(500));
const upstreamFields = {
  name,
  issuer: uri,
  clientId: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)),
  scopes: z.optional(scopes),
  partnerId: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(100)))),
  roles: z.optional(z.array(z.enum(UPSTREAM_VENDOR_ROLES)).check(z.maxLength(3))),
  buttonLabel: z.optional(z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(80)))),
  trustUpstreamMfa: z.optional(z.boolean()),
  /** null: chosen from discovery again. */
  tokenAuthMethod: z.optional(z.nullable(z.enum(UPSTREAM_TOKEN_AUTH_METHODS))),
};

/**
 * `CreateUpstream`: its discovery document is read before it is saved; a failure is the `issuer` field's error, a
 * `tokenAuthMethod` the provider does not list that field's. `clientSecret` may be left out for `private_key_jwt`
 * only (else the field's error `upstreamSecretRequired`).
 */
export const createUpstreamRequestSchema = z.object({
  id: upstreamIdSchema,
  ...upstreamFields,
  clientSecret: z.optional(upstreamSecret),
  vendor: z.optional(z.boolean()),
  reason,
});
/** Request of `CreateUpstream`. */
export type CreateUpstreamRequest = z.infer<typeof createUpstreamRequestSchema>;

/** `UpdateUpstream`: changes only the fields given; a new issuer, client or secret is discovered before it is saved. */
export const updateUpstreamRequestSchema = z.object({
  id: upstreamIdSchema,
  ...z.partial(z.object(upstreamFields)).shape,
  clientSecret: z.optional(upstreamSecret),
  reason,
});
/** Request of `UpdateUpstream`. */
export type UpdateUpstreamRequest = z.infer<typeof updateUpstreamRequestSchema>;

/** `DisableUpstream`: `disabled: false` enables it again. */
export const disableUpstreamRequestSchema = z.object({
  id: upstreamIdSchema,
  disabled: z.optional(z.boolean()),
  reason,
});
/** Request of `DisableUpstream`. */
export type DisableUpstreamRequest = z.infer<typeof disableUpstreamRequestSchema>;
