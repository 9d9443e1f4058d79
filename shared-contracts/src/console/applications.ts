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
