import { z } from 'zod/mini';
import { isSafeCssColour, MAX_PARTNER_NAME_LENGTH, safeHttpUrl } from '../branding.js';
import { MAX_IDLE_SIGN_OUT_MINUTES } from '../partner.schema.js';
import { passwordRulesSchema } from '../password-rules.js';

/**
 * The console's Partners page (issue 52, ADR 0062): the calls ConsolePartners, ConsolePartner, UpdatePartner and
 * UploadPartnerLogo. The options are those of `admin partners update`, checked with the same shared rules (a colour
 * by `isSafeCssColour`, the privacy link by `safeHttpUrl`, the password rules by `passwordRulesSchema`).
 */

const reason = z.optional(z.string().check(z.maxLength(500)));
const partnerId = z.string().check(z.minLength(1), z.maxLength(100));

/** The longest logo accepted (bytes); the CLI's limit too. */
export const MAX_PARTNER_LOGO_BYTES = 512 * 1024;
/** The logo types accepted by UploadPartnerLogo (an SVG only without script, ADR 0062). */
export const PARTNER_LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'] as const;
/** A logo content type. */
export type PartnerLogoType = (typeof PARTNER_LOGO_TYPES)[number];

/** The captcha providers a partner may choose (ADR 0014). */
export const PARTNER_CAPTCHA_PROVIDERS = ['altcha', 'recaptcha-v2', 'recaptcha-v3', 'off'] as const;
/** When the captcha is asked. */
export const PARTNER_CAPTCHA_WHEN = ['always', 'never', 'risk'] as const;

/** One partner in the list. */
export const partnerSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  domains: z.array(z.string()),
  isDefault: z.boolean(),
  backgroundColor: z.nullable(z.string()),
  /** Where its logo is served (`GetPartnerLogo`); null without a logo. */
  logoUrl: z.nullable(z.string()),
});
/** One partner in the list. */
export type PartnerSummary = z.infer<typeof partnerSummarySchema>;

/** Answer of `ConsolePartners` (GET). */
export const consolePartnersSchema = z.object({ partners: z.array(partnerSummarySchema) });
/** Answer of `ConsolePartners`. */
export type ConsolePartners = z.infer<typeof consolePartnersSchema>;

/** `ConsolePartner` (GET, `?id=`). */
export const consolePartnerRequestSchema = z.object({ id: partnerId });
/** Request of `ConsolePartner`. */
export type ConsolePartnerRequest = z.infer<typeof consolePartnerRequestSchema>;

const language = z.object({
  name: z.string().check(z.regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/)),
  description: z.string().check(z.minLength(1), z.maxLength(100)),
});

/** A partner's captcha as the console shows it (never the secret: only whether one is stored). */
export const partnerCaptchaSchema = z.object({
  provider: z.enum(PARTNER_CAPTCHA_PROVIDERS),
  when: z.enum(PARTNER_CAPTCHA_WHEN),
  siteKey: z.nullable(z.string()),
  hasSecret: z.boolean(),
  minScore: z.number(),
});

/** Answer of `ConsolePartner`: every setting `admin partners update` changes (never a secret). */
export const partnerSettingsSchema = z.object({
  ...partnerSummarySchema.shape,
  privacyPolicyUrl: z.nullable(z.string()),
  defaultLanguage: z.string(),
  availableLanguages: z.array(z.object({ name: z.string(), description: z.string() })),
  showLoginProviders: z.boolean(),
  showLanguageOptions: z.boolean(),
  showBackgroundImages: z.boolean(),
  requireTwoFactor: z.boolean(),
  rememberTwoFactorBrowser: z.boolean(),
  idleSignOutMinutes: z.number(),
  passwordRules: passwordRulesSchema,
  /** Days after which a password expires; 0 = never. */
  passwordMaxAgeDays: z.number(),
  captcha: partnerCaptchaSchema,
});
/** Answer of `ConsolePartner`. */
export type PartnerSettings = z.infer<typeof partnerSettingsSchema>;

/** The largest maximum password age accepted, in days (ten years; the CLI's bound). */
export const MAX_PASSWORD_AGE_DAYS = 3650;

/**
 * `UpdatePartner`: changes only the fields given (the CLI's `partners update`). A colour or privacy link of `null`
 * clears it. Languages must have a translation (the console offers no `--allow-untranslated`).
 */
export const updatePartnerRequestSchema = z.object({
  id: partnerId,
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_PARTNER_NAME_LENGTH))),
  backgroundColor: z.optional(
    z.nullable(z.string().check(z.refine((value) => isSafeCssColour(value), { error: 'invalidValue' }))),
  ),
  privacyPolicyUrl: z.optional(
    z.nullable(
      z.string().check(z.refine((value) => safeHttpUrl(value) !== undefined, { error: 'invalidValue' })),
    ),
  ),
  defaultLanguage: z.optional(language.shape.name),
  availableLanguages: z.optional(z.array(language).check(z.minLength(1), z.maxLength(20))),
  showLoginProviders: z.optional(z.boolean()),
  showLanguageOptions: z.optional(z.boolean()),
  showBackgroundImages: z.optional(z.boolean()),
  requireTwoFactor: z.optional(z.boolean()),
  rememberTwoFactorBrowser: z.optional(z.boolean()),
  idleSignOutMinutes: z.optional(
    z.number().check(z.int(), z.minimum(0), z.maximum(MAX_IDLE_SIGN_OUT_MINUTES)),
  ),
  passwordRules: z.optional(z.partial(passwordRulesSchema)),
  passwordMaxAgeDays: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(MAX_PASSWORD_AGE_DAYS))),
  captcha: z.optional(
    z.object({
      provider: z.optional(z.enum(PARTNER_CAPTCHA_PROVIDERS)),
      when: z.optional(z.enum(PARTNER_CAPTCHA_WHEN)),
      siteKey: z.optional(z.string().check(z.regex(/^[\w-]{1,200}$/))),
      secret: z.optional(z.string().check(z.regex(/^[\x21-\x7e]{1,500}$/))),
      minScore: z.optional(z.number().check(z.minimum(0), z.maximum(1))),
    }),
  ),
  reason,
});
/** Request of `UpdatePartner`. */
export type UpdatePartnerRequest = z.infer<typeof updatePartnerRequestSchema>;

/**
 * `UploadPartnerLogo` (POST, `?id=&reason=`): the image itself is the body, its type the `Content-Type` header.
 * Answered with the partner's settings.
 */
export const uploadPartnerLogoRequestSchema = z.object({ id: partnerId, reason });
/** Request of `UploadPartnerLogo` (its query). */
export type UploadPartnerLogoRequest = z.infer<typeof uploadPartnerLogoRequestSchema>;
