import { z } from 'zod/mini';
import { normaliseCode } from './two-factor.schema.js';

/** Digits of the typed one-time sign-in code (issue 15: ≥ 6; ADR 0019). */
export const OTT_CODE_LENGTH = 6;
/** A one-time sign-in token lives this long at most (issue 15: ≤ 10 min; ADR 0019). */
export const OTT_TTL_MINUTES = 10;
/** Where a mailed sign-in link leads: the page posts its `token` to `LoginWithOTT` (ADR 0019). */
export const OTT_LOGIN_PATH = '/account/login/ott';

// A link token is base64url of 32 random bytes (43 characters); anything far longer is not one.
const MAX_LINK_TOKEN = 256;
// Anything longer than this is not a code anyone typed; refused before any work.
const MAX_TYPED_CODE = 64;

/**
 * Body of `SendOTP` on the one-time-token page: the username or e-mail address to mail a code and link to. (At the
 * second-factor step the same call has an empty body and texts the SMS code instead: ADR 0008, ADR 0019.)
 */
export const sendOttRequestSchema = z.object({
  username: z
    .string('required')
    .check(z.trim(), z.minLength(1, 'required'), z.maxLength(256, 'invalidValue')),
  returnUrl: z.optional(z.string().check(z.maxLength(2048))),
});
/** Body of `SendOTP` on the one-time-token page. */
export type SendOttRequest = z.input<typeof sendOttRequestSchema>;

/**
 * Answer of `SendOTP` on the one-time-token page: always the same, whether an account matched or not (S10), so the
 * page can only say "if an account matches, a code is on its way".
 */
export const ottRequestedSchema = z.object({
  accepted: z.literal(true),
  /** Digits of the mailed code (the field's length). */
  codeLength: z.number().check(z.int()),
  /** Minutes the code and the link live. */
  expiresInMinutes: z.number().check(z.int()),
});
/** Answer of `SendOTP` on the one-time-token page. */
export type OttRequested = z.infer<typeof ottRequestedSchema>;

/**
 * Body of `LoginWithOTT`: the typed `code` (digits; spaces and dashes ignored) or the mailed link's `token`, exactly
 * one of them. The returnUrl is the page's; without it the one `SendOTP` was given applies (the link carries none).
 */
export const loginWithOttRequestSchema = z
  .object({
    code: z.optional(
      z.pipe(
        z.pipe(
          z.string('invalidCode').check(z.trim(), z.maxLength(MAX_TYPED_CODE, 'invalidCode')),
          z.transform(normaliseCode),
        ),
        z.string().check(z.regex(/^$|^[0-9]{1,12}$/, 'invalidCode')),
      ),
    ),
    token: z.optional(z.string('invalidValue').check(z.maxLength(MAX_LINK_TOKEN, 'invalidValue'))),
    returnUrl: z.optional(z.string().check(z.maxLength(2048))),
  })
  .check(
    z.superRefine((value, ctx) => {
      const hasCode = value.code !== undefined && value.code !== '';
      const hasToken = value.token !== undefined && value.token !== '';
      if (!hasCode && !hasToken) ctx.addIssue({ code: 'custom', path: ['code'], message: 'required' });
      if (hasCode && hasToken) ctx.addIssue({ code: 'custom', path: [''], message: 'invalidValue' });
    }),
  );
/** Body of `LoginWithOTT` as sent. */
export type LoginWithOttRequest = z.input<typeof loginWithOttRequestSchema>;
