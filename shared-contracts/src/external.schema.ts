import { z } from 'zod/mini';

/** An identity provider's id as configured (`admin idps add --id`): also part of its callback address. */
export const providerIdSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'required'),
    z.maxLength(63),
    z.regex(/^[a-z0-9][a-z0-9_-]*$/, 'invalidValue'),
  );

/** Query of `VendorLoginView` (`/account/login/vendor?vendorId=`). */
export const vendorLoginViewQuerySchema = z.object({ vendorId: providerIdSchema });

/** Answer of `VendorLoginView`: the vendor's name for the page and its continue button. */
export const vendorLoginViewSchema = z.object({ vendorId: z.string(), name: z.string() });
/** Answer of `VendorLoginView`. */
export type VendorLoginView = z.infer<typeof vendorLoginViewSchema>;

/**
 * Body of `VendorLogin`: start the sign-in at an upstream provider — a vendor's, or one of the sign-in page's login
 * providers. Answered by a 209 to the upstream's authorization endpoint.
 */
export const vendorLoginRequestSchema = z.object({
  vendorId: providerIdSchema,
  returnUrl: z.optional(z.string().check(z.maxLength(2048))),
});
/** Body of `VendorLogin`. */
export type VendorLoginRequest = z.input<typeof vendorLoginRequestSchema>;

/** Answer of `GET ExternalUser`: who the upstream said the visitor is, on the link page. */
export const externalUserSchema = z.object({
  name: z.optional(z.string()),
  email: z.optional(z.string()),
  /** The provider's display name. */
  provider: z.string(),
});
/** Answer of `ExternalUser`. */
export type ExternalUser = z.infer<typeof externalUserSchema>;

/** Body of `Link`: the local account's username (or e-mail) and password. */
export const linkRequestSchema = z.object({
  username: z.string().check(z.trim(), z.minLength(1, 'required'), z.maxLength(256)),
  /** Never trimmed nor truncated (S1). */
  password: z.string().check(z.minLength(1, 'required'), z.maxLength(1024)),
});
/** Body of `Link`. */
export type LinkRequest = z.input<typeof linkRequestSchema>;

/** Buttons of `Next` on the link page: `back` forgets the upstream identity and returns to the sign-in page. */
export const NEXT_BUTTONS = ['back'] as const;
/** Query of `Next`. */
export const nextQuerySchema = z.object({ button: z.enum(NEXT_BUTTONS) });

/** Body of `EexLink` (a signed-in user links another upstream) and of `EexUnlink`. */
export const eexLinkRequestSchema = z.object({
  vendorId: providerIdSchema,
  returnUrl: z.optional(z.string().check(z.maxLength(2048))),
});
/** Body of `EexLink`. */
export type EexLinkRequest = z.input<typeof eexLinkRequestSchema>;

/** One entry of `GET ExternalLogins`: an upstream the signed-in user may link, and whether it is linked. */
export const linkedProviderSchema = z.object({
  vendorId: z.string(),
  displayName: z.string(),
  linked: z.boolean(),
});
/** Answer of `GET ExternalLogins`. */
export const linkedProvidersSchema = z.array(linkedProviderSchema);
/** One entry of `ExternalLogins`. */
export type LinkedProvider = z.infer<typeof linkedProviderSchema>;

/** Buttons of `UpstreamLogout`: sign out at the upstream too, or not. */
export const UPSTREAM_LOGOUT_BUTTONS = ['yes', 'no'] as const;
/** Query of `UpstreamLogout`. */
export const upstreamLogoutQuerySchema = z.object({ button: z.enum(UPSTREAM_LOGOUT_BUTTONS) });

/**
 * Query flag of `/account/loggedout` after "yes" to an upstream that has no end-session endpoint (issue 53): signed
 * out here only, and the page says the company account may still be signed in.
 */
export const UPSTREAM_KEPT_QUERY = 'upstream=kept';

/** Where the upstream's end-session sends the browser back to (registered with the upstream, S27). */
export const UPSTREAM_POST_LOGOUT_PATH = '/account/loggedout';
/** The upstream's callback address on the gateway. */
export function upstreamCallbackPath(providerId: string): string {
  return `/signin/${providerId}/callback`;
}
/** Where the provider reads the gateway's public key for `private_key_jwt` (ADR 0064): registered with it. */
export function upstreamJwksPath(providerId: string): string {
  return `/signin/${providerId}/jwks`;
}
