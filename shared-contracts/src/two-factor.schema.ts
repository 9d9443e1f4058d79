import { z } from 'zod/mini';

/** The second factors a user can sign in with (SPEC.md §2 "Two-factor method choice"). */
export const TWO_FACTOR_METHODS = ['authenticator', 'sms', 'pin'] as const;
/** A second factor a user can sign in with. */
export const twoFactorMethodSchema = z.enum(TWO_FACTOR_METHODS);
/** A second factor a user can sign in with. */
export type TwoFactorMethod = z.infer<typeof twoFactorMethodSchema>;

/** How many recovery codes a set holds. */
export const RECOVERY_CODE_COUNT = 10;
/**
 * Recovery codes use Crockford's base32 (no I, L, O, U), 12 characters = 60 bits each (S19 asks for ≥ 50), shown in
 * groups of four.
 */
export const RECOVERY_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Characters of one recovery code, without the group separators. */
export const RECOVERY_CODE_LENGTH = 12;

/**
 * A code as typed: spaces, dashes and case do not matter (SPEC.md §2 "codes ignore spaces and case"). Crockford's
 * look-alikes are read as the digits they resemble (O → 0, I and L → 1).
 */
export function normaliseCode(value: string): string {
  return value.replace(/[\s-]/g, '').toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');
}

/** Writes a code in groups of four for reading (`ABCD-EFGH-JKMN`). */
export function groupCode(code: string, separator = '-'): string {
  return (code.match(/.{1,4}/g) ?? []).join(separator);
}

// Anything longer than this is not a code anyone typed; refused before any work.
const MAX_TYPED_CODE = 64;

/** A digits-only code (authenticator, SMS, PIN digits): required, then only digits once spaces are gone. */
const digitsCodeSchema = z.pipe(
  z.pipe(
    z
      .string('required')
      .check(z.trim(), z.minLength(1, 'required'), z.maxLength(MAX_TYPED_CODE, 'invalidCode')),
    z.transform(normaliseCode),
  ),
  z.string().check(z.regex(/^[0-9]{1,12}$/, 'invalidCode')),
);

/** An authenticator code: six digits once spaces are gone. */
const totpCodeSchema = z.pipe(
  z.pipe(
    z
      .string('required')
      .check(z.trim(), z.minLength(1, 'required'), z.maxLength(MAX_TYPED_CODE, 'invalidCode')),
    z.transform(normaliseCode),
  ),
  z.string().check(z.regex(/^[0-9]{6}$/, 'invalidCode')),
);

/** Answer of `LoginWith2FAView`: which methods the pending sign-in may use. */
export const loginWith2faViewSchema = z.object({
  /** The methods the account has set up, the preferred one first. */
  methods: z.array(twoFactorMethodSchema),
  /** Whether "remember this browser" is offered (a partner switch, off by default). */
  rememberBrowserAllowed: z.boolean(),
  /** The verified phone the SMS code goes to, masked (`•••• 0123`); null without the SMS method. */
  maskedPhone: z.nullable(z.string()),
  /** The address the PIN is mailed to, masked (`j•••@example.com`); null without the PIN method. */
  maskedEmail: z.nullable(z.string()),
});
/** Answer of `LoginWith2FAView`. */
export type LoginWith2faView = z.infer<typeof loginWith2faViewSchema>;

/** Body of `LoginWith2FA`: the method and the code (for the PIN: the digits at the asked positions). */
export const loginWith2faRequestSchema = z.object({
  method: twoFactorMethodSchema,
  code: digitsCodeSchema,
  rememberBrowser: z._default(z.optional(z.boolean()), false),
});
/** Body of `LoginWith2FA` as sent. */
export type LoginWith2faRequest = z.input<typeof loginWith2faRequestSchema>;

/** Answer of `LoginWithRecoveryCodeView`. */
export const loginWithRecoveryCodeViewSchema = z.object({
  /** Characters of a code, without separators (the field's hint). */
  codeLength: z.number(),
});
/** Answer of `LoginWithRecoveryCodeView`. */
export type LoginWithRecoveryCodeView = z.infer<typeof loginWithRecoveryCodeViewSchema>;

/** Body of `LoginWithRecoveryCode`: one recovery code, with or without its dashes, any case. */
export const loginWithRecoveryCodeRequestSchema = z.object({
  recoveryCode: z.pipe(
    z.pipe(
      z
        .string('required')
        .check(z.trim(), z.minLength(1, 'required'), z.maxLength(MAX_TYPED_CODE, 'invalidCode')),
      z.transform(normaliseCode),
    ),
    z
      .string()
      .check(z.regex(new RegExp(`^[${RECOVERY_CODE_ALPHABET}]{${RECOVERY_CODE_LENGTH}}$`), 'invalidCode')),
  ),
});
/** Body of `LoginWithRecoveryCode` as sent. */
export type LoginWithRecoveryCodeRequest = z.input<typeof loginWithRecoveryCodeRequestSchema>;

/** Digits of an e-mailed PIN (≥ 8 is recommended, ADR 0008). */
export const PIN_LENGTH = 8;
/** How many of the PIN's digits a sign-in asks for: six, so one guess is 10⁻⁶ (issue 39, ADR 0008). */
export const PIN_ASKED_DIGITS = 6;
/** Digits of an SMS code. */
export const SMS_CODE_LENGTH = 6;

/** Query of `GeneratePin`: `forced=true` mails a new PIN even while one is live (resend), the old one dies. */
export const generatePinQuerySchema = z.object({
  forced: z.pipe(
    z.optional(z.enum(['true', 'false', 'True', 'False'], 'invalidValue')),
    z.transform((value) => value?.toLowerCase() === 'true'),
  ),
});

/** Answer of `PinReference` (or null when no PIN is live): the 1-based positions of the digits to type. */
export const pinReferenceSchema = z.nullable(
  z.object({
    positions: z.array(z.number().check(z.int(), z.minimum(1))),
    /** Digits of the PIN that was mailed. */
    length: z.number().check(z.int()),
  }),
);
/** Answer of `PinReference`. */
export type PinReference = z.infer<typeof pinReferenceSchema>;

/** Body of `SendOTP`: nothing to choose; the code goes to the account's verified phone. */
export const sendOtpRequestSchema = z.object({}, 'invalidValue');

/**
 * Answer of `SendOTP` and `GeneratePhoneVerification`: whether a code went out, where to (masked), and how long
 * until another may be asked for (the wait grows with every resend).
 */
export const codeSentSchema = z.object({
  sent: z.boolean(),
  maskedPhone: z.nullable(z.string()),
  retryAfterSeconds: z.number().check(z.int(), z.minimum(0)),
});
/** Answer of `SendOTP` and `GeneratePhoneVerification`. */
export type CodeSent = z.infer<typeof codeSentSchema>;

/**
 * A phone number as typed: spaces, dots, dashes and brackets do not matter; it must be international (E.164:
 * `+`, country code, up to 15 digits), since the SMS provider needs one.
 */
export function normalisePhone(value: string): string {
  return value.replace(/[\s().-]/g, '');
}

/** Body of `GeneratePhoneVerification`: the phone number to prove at set-up. */
export const generatePhoneVerificationRequestSchema = z.object({
  phone: z.pipe(
    z.pipe(
      z
        .string('required')
        .check(z.trim(), z.minLength(1, 'required'), z.maxLength(MAX_TYPED_CODE, 'invalidPhoneNumber')),
      z.transform(normalisePhone),
    ),
    z.string().check(z.regex(/^\+[1-9][0-9]{6,14}$/, 'invalidPhoneNumber')),
  ),
});
/** Body of `GeneratePhoneVerification` as sent. */
export type GeneratePhoneVerificationRequest = z.input<typeof generatePhoneVerificationRequestSchema>;

/** Answer of `Setup2FAView`: what the set-up wizard shows. */
export const setup2faViewSchema = z.object({
  /** The methods that can be set up here. */
  methods: z.array(twoFactorMethodSchema),
  /** The methods the account already has. */
  configured: z.array(twoFactorMethodSchema),
  /** True while the wizard is a step of a sign-in (2FA required); false from the signed-in account. */
  duringSignIn: z.boolean(),
  /** The account's address the PIN would be mailed to, masked; null when the account has none (no PIN). */
  maskedEmail: z.nullable(z.string()),
  /** A new authenticator secret waiting for its first code. */
  authenticator: z.object({
    /** Base32 secret in groups of four, for typing into the app. */
    secret: z.string(),
    /** The `otpauth://totp/…` URI the QR code holds. */
    uri: z.string(),
    /** The QR code as an SVG document, rendered on the server. */
    qrSvg: z.string(),
    /** Issuer and account name as the app will show them. */
    issuer: z.string(),
    accountName: z.string(),
  }),
});
/** Answer of `Setup2FAView`. */
export type Setup2faView = z.infer<typeof setup2faViewSchema>;

/** A code of exactly `n` digits once spaces are gone. */
function fixedDigitsSchema(n: number) {
  return z.pipe(
    z.pipe(
      z
        .string('required')
        .check(z.trim(), z.minLength(1, 'required'), z.maxLength(MAX_TYPED_CODE, 'invalidCode')),
      z.transform(normaliseCode),
    ),
    z.string().check(z.regex(new RegExp(`^[0-9]{${n}}$`), 'invalidCode')),
  );
}

/**
 * `replace: true` asks to replace a method the account has already (a new authenticator app, another phone). Without
 * it the gateway refuses to confirm a method that is set up (`twoStepMethodExists`): a method is added beside the
 * others, and replacing one is its own, confirmed action (ADR 0050).
 */
const replaceSchema = z._default(z.optional(z.boolean('invalidValue')), false);

/**
 * Body of `Validate2faSetupCode`: the code that confirms the method being set up — the new authenticator's code,
 * the code texted to the new phone, or the asked digits of the PIN mailed to the account's address — and whether it
 * replaces the same method set up before.
 */
export const validate2faSetupCodeRequestSchema = z.discriminatedUnion(
  'method',
  [
    z.object({ method: z.literal('authenticator'), code: totpCodeSchema, replace: replaceSchema }),
    z.object({ method: z.literal('sms'), code: fixedDigitsSchema(SMS_CODE_LENGTH), replace: replaceSchema }),
    z.object({ method: z.literal('pin'), code: fixedDigitsSchema(PIN_ASKED_DIGITS), replace: replaceSchema }),
  ],
  'invalidValue',
);
/** Body of `Validate2faSetupCode` as sent. */
export type Validate2faSetupCodeRequest = z.input<typeof validate2faSetupCodeRequestSchema>;

/**
 * Answer of `Validate2faSetupCode`: the factor is on. The account's first method brings its first recovery codes,
 * waiting under this one-time id; a method added beside others keeps the codes the account has (null, ADR 0050).
 */
export const validate2faSetupCodeResponseSchema = z.object({ recoveryCodesId: z.nullable(z.string()) });
/** Answer of `Validate2faSetupCode`. */
export type Validate2faSetupCodeResponse = z.infer<typeof validate2faSetupCodeResponseSchema>;

/**
 * Query of `RedeemRecoveryCode`: the one-time id of a freshly generated set. Without an id, a signed-in account
 * with a second factor (recent full sign-in, S21) gets a new set on demand, replacing the old one.
 */
export const redeemRecoveryCodeQuerySchema = z.object({
  id: z.optional(z.string('required').check(z.minLength(1, 'required'), z.maxLength(128, 'invalidValue'))),
});

/** Answer of `RedeemRecoveryCode`: the set, shown this once (grouped for reading). */
export const recoveryCodeSetSchema = z.object({ codes: z.array(z.string()) });
/** Answer of `RedeemRecoveryCode`. */
export type RecoveryCodeSet = z.infer<typeof recoveryCodeSetSchema>;

/** Query of `RedeemState`: the id of a set, to ask whether it can still be shown. */
export const redeemStateQuerySchema = z.object({
  state: z.string('required').check(z.minLength(1, 'required'), z.maxLength(128, 'invalidValue')),
});

/** Answer of `RedeemState`. */
export const redeemStateSchema = z.object({ available: z.boolean() });
/** Answer of `RedeemState`. */
export type RedeemState = z.infer<typeof redeemStateSchema>;
