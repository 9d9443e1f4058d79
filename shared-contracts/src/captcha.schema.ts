import { z } from 'zod/mini';

/**
 * The actions a captcha guards (SPEC.md §4 "Captcha", §9 captcha-guarded paths): a solved challenge is bound to
 * one of them and lets exactly one call of it through.
 */
export const CAPTCHA_ACTIONS = ['login', 'link', 'recover', 'sendOtp'] as const;
/** An action a captcha guards. */
export type CaptchaAction = (typeof CAPTCHA_ACTIONS)[number];

/**
 * The account API calls each guarded action stands for: while a challenge is in progress the API client cancels
 * these instead of sending them (SPEC.md §4).
 */
export const CAPTCHA_GUARDED_CALLS: Readonly<Record<string, CaptchaAction>> = {
  login: 'login',
  link: 'link',
  recover: 'recover',
  sendotp: 'sendOtp',
};

/** The guarded action of an account call name (`"Login"`, case-insensitive), if it is one. */
export function guardedActionOf(callName: string): CaptchaAction | undefined {
  const name = callName.replace(/^.*\//, '').replace(/\?.*$/, '').toLowerCase();
  return Object.prototype.hasOwnProperty.call(CAPTCHA_GUARDED_CALLS, name)
    ? CAPTCHA_GUARDED_CALLS[name]
    : undefined;
}

/**
 * Captcha versions of `VerifyCaptcha` (SPEC.md §3, §9): 1 the self-hosted proof-of-work (ALTCHA), 2 the reCAPTCHA
 * v2 checkbox, 3 reCAPTCHA v3 / Enterprise score.
 */
export const CAPTCHA_VERSIONS = [1, 2, 3] as const;
/** A captcha version. */
export type CaptchaVersion = (typeof CAPTCHA_VERSIONS)[number];

const captchaVersionSchema = z.union([z.literal(1), z.literal(2), z.literal(3)], 'invalidValue');
const captchaActionSchema = z.enum(CAPTCHA_ACTIONS, 'invalidValue');

/**
 * Body of `VerifyCaptcha` (SPEC.md §3 "Captcha verification payload: version and token"), plus the action the
 * challenge was asked for: the server checks the token against it (S9).
 */
export const verifyCaptchaRequestSchema = z.object({
  version: captchaVersionSchema,
  /** ALTCHA: the widget's base64 payload; reCAPTCHA: the response token. */
  token: z.string('required').check(z.minLength(1, 'required'), z.maxLength(16_384, 'invalidValue')),
  action: captchaActionSchema,
});
/** Body of `VerifyCaptcha`. */
export type VerifyCaptchaRequest = z.input<typeof verifyCaptchaRequestSchema>;

/** Answer of `VerifyCaptcha`: the next call of the action may go through. */
export const verifyCaptchaResultSchema = z.object({ verified: z.literal(true) });
/** Answer of `VerifyCaptcha`. */
export type VerifyCaptchaResult = z.infer<typeof verifyCaptchaResultSchema>;

/** Query of `GET CaptchaChallenge`: a fresh proof-of-work challenge for an action (version 1 only). */
export const captchaChallengeQuerySchema = z.object({ action: captchaActionSchema });

/**
 * A partner's active captcha as the sign-in pages need it (in `LoginView`): which widget, and the public site key
 * of a reCAPTCHA provider. Absent when the partner turned the captcha off.
 */
export const captchaProviderSchema = z.object({
  version: captchaVersionSchema,
  siteKey: z.optional(z.string()),
});
/** A partner's active captcha provider. */
export type CaptchaProvider = z.infer<typeof captchaProviderSchema>;

/** True when the provider is Google's reCAPTCHA (v2 or v3): its privacy notice must show (SPEC.md §2). */
export function isRecaptcha(provider: CaptchaProvider | undefined): boolean {
  return provider?.version === 2 || provider?.version === 3;
}
