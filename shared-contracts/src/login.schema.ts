import { z } from 'zod/mini';
import { captchaProviderSchema } from './captcha.schema.js';

/** Body of `Login` (SPEC.md §2 sign-in screen, §7). */
export const loginRequestSchema = z.object({
  /** Username or e-mail. */
  username: z.string().check(z.trim(), z.minLength(1, 'required'), z.maxLength(256)),
  /** Never trimmed nor truncated (SECURITY-CHECKLIST S1); the upper bound only stops abuse of the hash. */
  password: z.string().check(z.minLength(1, 'required'), z.maxLength(1024)),
  rememberMe: z._default(z.optional(z.boolean()), false),
  returnUrl: z.optional(z.string().check(z.maxLength(2048))),
  /**
   * The browser has a user-verifying platform authenticator (ADR 0016): only then does the sign-in offer to
   * register a device. The page asks `PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable()`.
   */
  platformAuthenticator: z._default(z.optional(z.boolean()), false),
});
/** Body of `Login` as sent. */
export type LoginRequest = z.input<typeof loginRequestSchema>;

/** An external sign-in provider offered on the sign-in page. */
export const externalProviderSchema = z.object({
  vendorId: z.string(),
  displayName: z.string(),
  /** The button's own text as configured (`idps add --button-label`), instead of "Sign in with <name>". */
  buttonLabel: z.optional(z.string()),
});
/** An external sign-in provider offered on the sign-in page. */
export type ExternalProvider = z.infer<typeof externalProviderSchema>;

/** The longest application name the sign-in page shows (LoginView cuts a longer registered name with "…"). */
export const CLIENT_NAME_MAX = 60;

/** Answer of `LoginView` (query returnUrl): what the sign-in page needs. */
export const loginViewSchema = z.object({
  /** The username remembered for this session (SPEC.md §3 "kept for the session"). */
  username: z.optional(z.string()),
  /** Whether password sign-in is allowed for this returnUrl / partner. */
  allowLocal: z.boolean(),
  /** Partner switch: whether external providers show. */
  showLoginProviders: z.boolean(),
  providers: z.array(externalProviderSchema),
  /** The returnUrl after the server's safety check. */
  returnUrl: z.string(),
  /** Whether a captcha must be solved before Login (SPEC.md §9 captcha-guarded paths). */
  captchaRequired: z.optional(z.boolean()),
  /** The partner's captcha provider (absent when off): which widget shows, and whether the reCAPTCHA notice does. */
  captcha: z.optional(captchaProviderSchema),
  /**
   * The registered name of the application whose sign-in this is (the returnUrl is its live OIDC interaction):
   * the page says "to continue to <name>". Absent for a sign-in to this site itself. Plain text, at most
   * {@link CLIENT_NAME_MAX} characters.
   */
  clientName: z.optional(z.string().check(z.maxLength(CLIENT_NAME_MAX))),
});
/** Answer of `LoginView`. */
export type LoginView = z.infer<typeof loginViewSchema>;

/** Query of `LogoutView`. */
export const logoutViewQuerySchema = z.object({ logoutId: z.optional(z.string().check(z.maxLength(512))) });

/**
 * Answer of `LogoutView` (logoutId). Before sign-out: whether the user must confirm. After sign-out, for the
 * `logoutId` of the 209 to `/account/loggedout?logoutId=<id>`: `loggedOut: true` and, when an application asked for
 * the sign-out, where to return to. The gateway answers that once, to the browser that signed out.
 */
export const logoutViewSchema = z.object({
  logoutId: z.optional(z.string()),
  /** True when the sign-out was not requested with proof (id_token_hint), so the user must confirm (S32). */
  showLogoutPrompt: z.boolean(),
  /** Name of the client that asked for the sign-out, when known. */
  clientName: z.optional(z.string()),
  /** True when `logoutId` names a sign-out this browser has just finished (the logged-out page's question). */
  loggedOut: z.optional(z.boolean()),
  /**
   * The client's registered post_logout_redirect_uri (exact match, S32) with its `state`, from the server's record of
   * the finished sign-out, never from the query: the logged-out page's "Return to <client>" link.
   */
  postLogoutRedirectUri: z.optional(z.string()),
  /**
   * The browser signed out of a session that came through this upstream provider (its name): the upstream sign-out
   * page asks whether to sign out there too (UpstreamLogout).
   */
  upstream: z.optional(z.string()),
});
/** Answer of `LogoutView`. */
export type LogoutView = z.infer<typeof logoutViewSchema>;

/** Body of `Logout`. */
export const logoutRequestSchema = z.object({ logoutId: z.optional(z.string().check(z.maxLength(512))) });
/** Body of `Logout`. */
export type LogoutRequest = z.infer<typeof logoutRequestSchema>;

/**
 * Body of `SilentLogout`: nothing (ADR 0020). The shell's idle timer sends it; the answer is the 209 to
 * `/account/loggedout?reason=inactivity`.
 */
export const silentLogoutRequestSchema = z.object({});

/**
 * Body of `SilentLogin` (ADR 0020): the sign-in page's returnUrl. A remembered (remember-me) sign-in of this browser
 * going to an application answers 209 (to the application, or to a sign-in step that still applies); anything else
 * answers `false`.
 */
export const silentLoginRequestSchema = z.object({
  returnUrl: z.optional(z.string().check(z.maxLength(2048))),
});
/** Body of `SilentLogin`. */
export type SilentLoginRequest = z.infer<typeof silentLoginRequestSchema>;

/** Body of `Exchange`: the state of a 209 answer. */
export const exchangeRequestSchema = z.object({ state: z.string().check(z.minLength(1), z.maxLength(4096)) });
/** Body of `Exchange`. */
export type ExchangeRequest = z.infer<typeof exchangeRequestSchema>;

/** Answer of `Exchange` and of the anti-forgery token call: a fresh token (also set as cookie). */
export const antiforgeryTokenSchema = z.object({ token: z.string() });
/** Answer of `Exchange`. */
export type AntiforgeryToken = z.infer<typeof antiforgeryTokenSchema>;
