import { z } from 'zod/mini';
import { captchaProviderSchema } from './captcha.schema.js';
import { passwordRulesSchema } from './password-rules.js';
import { TWO_FACTOR_METHODS, twoFactorMethodSchema } from './two-factor.schema.js';
import { registeredDeviceSchema, secureSignInPayloadSchema } from './webauthn.schema.js';

/**
 * The security centre at `/account/` (issue 43, ADR 0036): what a signed-in person sees of their own account, and
 * the bodies of the calls that change it. Every change needs a recent sign-in (403 `recentSignInRequired`
 * otherwise) and is mailed to the account.
 */

/** Longest display name a person may give themselves. */
export const DISPLAY_NAME_MAX = 100;

/**
 * Where a session signed in from, coarsely (ADR 0049), read from the address the service saw behind its trusted
 * proxies, with no third-party lookup: `thisDevice` for a loopback address (the browser runs on the service's own
 * machine), `localNetwork` for a private, unique-local or link-local one, else `network` with the public network's
 * prefix (`203.0.113.x`, `2001:db8:1::/48`). Never the full address of a device.
 */
export const sessionNetworkSchema = z.object({
  kind: z.enum(['thisDevice', 'localNetwork', 'network']),
  /** The public network's prefix, for `network` only. */
  prefix: z.optional(z.string()),
});
/** Where a session signed in from, coarsely (ADR 0049). */
export type SessionNetwork = z.infer<typeof sessionNetworkSchema>;

/**
 * A signed-in session of the account (a browser where it is signed in). The view lists this browser's first, then
 * the others by last activity, newest first; ended and expired sessions are never listed (ADR 0049).
 */
export const accountSessionSchema = z.object({
  /** Random handle of the session: what `SignOutSession` takes. */
  id: z.string(),
  /** This browser's own session. */
  current: z.boolean(),
  /** Epoch ms of the sign-in. */
  createdAt: z.number(),
  /** Epoch ms of the last request. */
  lastSeenAt: z.number(),
  /** The network it signed in from, coarsely; null when the address is unknown or unreadable. */
  network: z.nullable(sessionNetworkSchema),
  /** Another session from the same network as this browser's (the same /24 or /48); false for this browser's own. */
  sameNetworkAsCurrent: z.boolean(),
  /** The browser's user agent at sign-in, when known (the page reads browser, system and device type from it). */
  userAgent: z.nullable(z.string()),
});
/** A signed-in session of the account. */
export type AccountSession = z.infer<typeof accountSessionSchema>;

/**
 * A browser remembered for the account's second factor ("remember this browser", ADR 0008): it skips two-step
 * verification at sign-in until forgotten, its 30 days are over, or the password changes (ADR 0036).
 */
export const rememberedBrowserSchema = z.object({
  /** Random handle of the remembered browser: what `ForgetRememberedBrowser` takes (never the cookie or its hash). */
  id: z.string(),
  /** The browser asking is this one. */
  current: z.boolean(),
  /** Epoch ms when it was remembered (the sign-in that ticked "remember this browser"). */
  rememberedAt: z.number(),
  /** Epoch ms when it last spared a sign-in the second factor; null until then. */
  lastUsedAt: z.nullable(z.number()),
  /** The network it was remembered from (an IPv4 /24 or IPv6 /48), when known. */
  ip: z.nullable(z.string()),
  /** The browser's user agent when it was remembered, when known. */
  userAgent: z.nullable(z.string()),
});
/** A browser remembered for the account's second factor. */
export type RememberedBrowser = z.infer<typeof rememberedBrowserSchema>;

/** One two-step verification method the account has set up. */
export const twoStepMethodSchema = z.object({
  method: twoFactorMethodSchema,
  /** The method the sign-in asks for first. */
  isDefault: z.boolean(),
  /** What it is tied to, masked (the phone's last digits, the e-mail address), when it is tied to something. */
  detail: z.optional(z.string()),
});
/** One two-step verification method the account has set up. */
export type TwoStepMethod = z.infer<typeof twoStepMethodSchema>;

/** Answer of `SecurityCentreView`. */
export const securityCentreViewSchema = z.object({
  profile: z.object({
    userName: z.string(),
    displayName: z.string(),
    email: z.nullable(z.string()),
    /** A new address asked for and not confirmed yet (its link is waiting in that mailbox). */
    pendingEmail: z.optional(z.nullable(z.string())),
  }),
  /** Epoch ms until which changes are allowed without signing in again; 0 when a new sign-in is needed now. */
  recentSignInUntil: z.number(),
  twoStep: z.object({
    methods: z.array(twoStepMethodSchema),
    /** The account or its partner requires two-step verification: the last method cannot be removed. */
    required: z.boolean(),
  }),
  passkeys: z.array(registeredDeviceSchema),
  recoveryCodes: z.object({ remaining: z.number() }),
  sessions: z.array(accountSessionSchema),
  /** This browser skips the second factor for the account ("remember this browser", ADR 0008). */
  browserRemembered: z.boolean(),
  /** Every browser that skips the second factor for the account, newest first (ADR 0036). */
  rememberedBrowsers: z.array(rememberedBrowserSchema),
  passwordRules: passwordRulesSchema,
  /** The customer chosen for this session, if any, and whether there is another to switch to. */
  customer: z.nullable(z.object({ id: z.string(), name: z.string() })),
  canSwitchCustomer: z.boolean(),
  /**
   * Present for a vendor account (ADR 0041): it signs in through `provider` (its name) only, so the page shows why
   * instead of the password, e-mail, passkey and two-step actions.
   */
  vendorAccount: z.optional(z.object({ provider: z.string() })),
});
/** Answer of `SecurityCentreView`. */
export type SecurityCentreView = z.infer<typeof securityCentreViewSchema>;

/** Body of `RemoveTwoStepMethod` and `SetDefaultTwoStepMethod`. */
export const twoStepMethodRequestSchema = z.object({ method: twoFactorMethodSchema });
/** Body of `RemoveTwoStepMethod` and `SetDefaultTwoStepMethod`. */
export type TwoStepMethodRequest = z.infer<typeof twoStepMethodRequestSchema>;

/** Body of `SignOutSession`. */
export const signOutSessionRequestSchema = z.object({
  id: z.string('required').check(z.minLength(1, 'required'), z.maxLength(64, 'invalidValue')),
});
/** Body of `SignOutSession`. */
export type SignOutSessionRequest = z.infer<typeof signOutSessionRequestSchema>;

/** Body of `ForgetRememberedBrowser`: the handle of the browser that must ask for the second factor again. */
export const forgetRememberedBrowserRequestSchema = z.object({
  id: z.string('required').check(z.minLength(1, 'required'), z.maxLength(64, 'invalidValue')),
});
/** Body of `ForgetRememberedBrowser`. */
export type ForgetRememberedBrowserRequest = z.infer<typeof forgetRememberedBrowserRequestSchema>;

/** Answer of `ForgetAllRememberedBrowsers`: how many browsers were forgotten (this one included). */
export const rememberedBrowsersForgottenAnswerSchema = z.object({ forgotten: z.number() });
/** Answer of `ForgetAllRememberedBrowsers`. */
export type RememberedBrowsersForgottenAnswer = z.infer<typeof rememberedBrowsersForgottenAnswerSchema>;

/** Body of `UpdateProfile`. */
export const updateProfileRequestSchema = z.object({
  displayName: z
    .string('required')
    .check(z.trim(), z.minLength(1, 'required'), z.maxLength(DISPLAY_NAME_MAX, 'invalidValue')),
});
/** Body of `UpdateProfile`. */
export type UpdateProfileRequest = z.infer<typeof updateProfileRequestSchema>;

/** Answer of `RegenerateRecoveryCodes`: the new set, shown once. */
export const recoveryCodesAnswerSchema = z.object({ codes: z.array(z.string()) });
/** Answer of `RegenerateRecoveryCodes`. */
export type RecoveryCodesAnswer = z.infer<typeof recoveryCodesAnswerSchema>;

/** Longest e-mail address the centre takes (RFC 5321's path limit). */
export const EMAIL_MAX = 254;

/** Body of `RequestEmailChange`: the new address, which gets a confirmation link (issue 43, ADR 0036). */
export const requestEmailChangeRequestSchema = z.object({
  email: z
    .string('required')
    .check(
      z.trim(),
      z.minLength(1, 'emailRequired'),
      z.maxLength(EMAIL_MAX, 'invalidEmail'),
      z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'invalidEmail'),
    ),
});
/** Body of `RequestEmailChange`. */
export type RequestEmailChangeRequest = z.infer<typeof requestEmailChangeRequestSchema>;

/** Body of `ConfirmEmailChange`: the token of the mailed link. */
export const confirmEmailChangeRequestSchema = z.object({
  token: z.string('required').check(z.minLength(1, 'required'), z.maxLength(128, 'emailChangeLinkInvalid')),
});
/** Body of `ConfirmEmailChange`. */
export type ConfirmEmailChangeRequest = z.infer<typeof confirmEmailChangeRequestSchema>;

/** Answer of `ConfirmEmailChange`: the account's address now. */
export const emailChangedAnswerSchema = z.object({ email: z.string() });
/** Answer of `ConfirmEmailChange`. */
export type EmailChangedAnswer = z.infer<typeof emailChangedAnswerSchema>;

/**
 * "Confirm it's you" (issue 49, ADR 0045): a change refused with 403 `recentSignInRequired` opens a dialog that
 * proves a factor of the account in place — no session ends, no page changes — and then sends the refused change
 * again. These are its calls' bodies and answers.
 */

/** The ways the dialog may ask for a second factor after the password: the account's methods and a recovery code. */
export const CONFIRM_ITS_YOU_SECOND_FACTORS = [...TWO_FACTOR_METHODS, 'recoveryCode'] as const;
/** A way the dialog asks for the second factor. */
export const confirmItsYouSecondFactorSchema = z.enum(CONFIRM_ITS_YOU_SECOND_FACTORS);
/** A way the dialog asks for the second factor. */
export type ConfirmItsYouSecondFactor = z.infer<typeof confirmItsYouSecondFactorSchema>;

/** Answer of `GET ConfirmItsYouView`: what the account can prove itself with. */
export const confirmItsYouViewSchema = z.object({
  /** The account has a password of its own (a vendor account has none: ADR 0041). */
  password: z.boolean(),
  /** The account has a passkey (which proves both factors at once, ADR 0016). */
  passkey: z.boolean(),
  /** What the password must be followed by (empty: the password alone is a full sign-in for this account). */
  secondFactor: z.array(confirmItsYouSecondFactorSchema),
  /** Where a texted code goes, masked (`+44 •••• ••23`), when `secondFactor` offers `sms`. */
  maskedPhone: z.optional(z.nullable(z.string())),
  /** Where a PIN is mailed, masked, when `secondFactor` offers `pin`. */
  maskedEmail: z.optional(z.nullable(z.string())),
  /**
   * The partner's captcha (ADR 0014), when its policy guards the password form: the provider, and whether the next
   * password needs a solved challenge first (as `LoginView` says for the sign-in page). Absent: no captcha.
   */
  captcha: z.optional(captchaProviderSchema),
  captchaRequired: z.optional(z.boolean()),
});
/** Answer of `ConfirmItsYouView`. */
export type ConfirmItsYouView = z.infer<typeof confirmItsYouViewSchema>;

/**
 * Body of `ConfirmItsYou`: the account's password, or a passkey's assertion to the challenge of `AssertionOptions`
 * (exactly one; neither is 400 `{password: ["required"]}`).
 */
export const confirmItsYouRequestSchema = z.object({
  password: z.optional(z.string().check(z.minLength(1, 'required'), z.maxLength(1024, 'invalidValue'))),
  passkey: z.optional(secureSignInPayloadSchema),
});
/** Body of `ConfirmItsYou`. */
export type ConfirmItsYouRequest = z.infer<typeof confirmItsYouRequestSchema>;

/** Body of `ConfirmItsYouSecondFactor`: the second factor after the password (a code, or a recovery code). */
export const confirmItsYouSecondFactorRequestSchema = z.object({
  method: confirmItsYouSecondFactorSchema,
  code: z.string('required').check(z.trim(), z.minLength(1, 'required'), z.maxLength(64, 'invalidCode')),
});
/** Body of `ConfirmItsYouSecondFactor`. */
export type ConfirmItsYouSecondFactorRequest = z.infer<typeof confirmItsYouSecondFactorRequestSchema>;

/** The second factors whose code goes out on request (SMS, the mailed PIN): sent only when the person presses Send. */
export const CONFIRM_ITS_YOU_SENT_CODES = ['sms', 'pin'] as const;

/** Body of `ConfirmItsYouSendCode`: which code to send, after the password was proved in this session. */
export const confirmItsYouSendCodeRequestSchema = z.object({
  method: z.enum(CONFIRM_ITS_YOU_SENT_CODES, 'invalidValue'),
});
/** Body of `ConfirmItsYouSendCode`. */
export type ConfirmItsYouSendCodeRequest = z.infer<typeof confirmItsYouSendCodeRequestSchema>;

/**
 * Answer of `ConfirmItsYouSendCode`: `sent` false when a code sent moments ago is still to be used (a text is resent
 * only after `retryAfterSeconds`); `to` is where it went, masked; for a PIN, `positions` are the 1-based digits to
 * type (a new PIN each time: the previous one dies).
 */
export const confirmItsYouCodeSentSchema = z.object({
  sent: z.boolean(),
  to: z.nullable(z.string()),
  retryAfterSeconds: z.number().check(z.int(), z.minimum(0)),
  positions: z.optional(z.array(z.number().check(z.int(), z.minimum(1)))),
});
/** Answer of `ConfirmItsYouSendCode`. */
export type ConfirmItsYouCodeSent = z.infer<typeof confirmItsYouCodeSentSchema>;

/**
 * Answer of `ConfirmItsYou` and `ConfirmItsYouSecondFactor`: `confirmed` once the sign-in time is renewed (the
 * refused change may be sent again); else the password passed and `secondFactor` lists what may follow it.
 */
export const confirmItsYouAnswerSchema = z.object({
  confirmed: z.boolean(),
  secondFactor: z.optional(z.array(confirmItsYouSecondFactorSchema)),
});
/** Answer of `ConfirmItsYou` and `ConfirmItsYouSecondFactor`. */
export type ConfirmItsYouAnswer = z.infer<typeof confirmItsYouAnswerSchema>;
