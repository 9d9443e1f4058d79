/**
 * Every error and message code the server sends (in the 400 errors map, or as a `code` field) and the UI
 * translates. The `errors` i18next namespace of the shell has one key per code; the en-GB text here is the
 * source of those translations and the fallback where no UI is involved (e.g. the CLI, API clients).
 *
 * Codes with `{{n}}`/`{{field}}` take interpolation values, sent beside the code as `code|{"n":8}`
 * (see {@link formatErrorCode} and {@link parseErrorCode}).
 */
export const ERROR_MESSAGES = {
  // SPEC.md §5 validation
  required: 'This field is required.',
  fieldRequired: '{{field}} is required.',
  currentPasswordRequired: 'Current password is required.',
  newPasswordRequired: 'New password is required.',
  passwordRequirements: 'Password does not meet the requirements.',
  passwordsMustMatch: 'Passwords must match.',
  passwordTooShort: 'Password must be at least {{n}} characters.',
  passwordTooLong: 'Password must be at most {{n}} characters.',
  passwordCharacterClasses:
    'Must have at least one upper case character, one lower case character, one number and one special character.',
  passwordConsecutive: 'Must not contain more than {{n}} consecutive characters.',
  passwordInvalidCharacters: 'Must not contain invalid characters.',
  passwordCommon: 'This password is too common or has appeared in a data breach. Choose another.',
  passwordMustDiffer: 'The new password must be different from the current one.',
  currentPasswordIncorrect: 'The current password is incorrect.',
  invalidEmail: 'Must be a valid email address.',
  emailRequired: 'Email is a required field.',
  invalidValue: 'This value is not valid.',
  /** The `title` of every 400 with an errors map (VALIDATION_PROBLEM_TITLE in en-GB), translated by the gateway. */
  validationProblem: 'One or more validation errors occurred.',
  // SPEC.md §8 user messages
  validationFailed: 'One or more validations errors occurred.',
  sessionTimedOut: 'Your session had timed out. Please try again.',
  deviceRegistrationError: 'There was a problem registering your passkey. Please try again later.',
  /** SPEC.md §8: "Your password has expired and you are not allowed to login. Change your password to continue." (ADR 0038) */
  passwordExpired: 'Your password has expired. Choose a new one to continue.',
  /** SPEC.md §8: "You have been logged out due to inactivity." (ADR 0038) */
  loggedOutInactivity: 'You were signed out after a period of inactivity.',
  /** SPEC.md §8: "You are logged out." (ADR 0038) */
  loggedOut: 'You have signed out.',
  /** SPEC.md §8: "Warning: CAPS LOCK is on!" (ADR 0038) */
  capsLockOn: 'Caps Lock is on',
  secureSignInFailed:
    'We could not verify you or the passkey you used. Try again, or sign in with your username.',
  // sign-in
  invalidCredentials: 'The username or password is incorrect.',
  tooManyAttempts: 'Too many attempts. Please wait a moment and try again.',
  accountDisabled: 'The username or password is incorrect.',
  antiforgeryInvalid: 'Your request could not be verified. Please reload the page and try again.',
  invalidReturnUrl: 'The return address is not allowed.',
  localLoginNotAllowed: 'Signing in with a password is not allowed here.',
  notAuthenticated: 'You need to sign in first.',
  stepNotAllowed: 'This step is not available now. Please start signing in again.',
  // captcha (SPEC.md §4)
  captchaRequired: 'Please confirm that you are a person to continue.',
  captchaInvalid: 'The check did not succeed. Please try again.',
  // second factor
  invalidCode: 'The code is not valid or has expired. Check it and try again.',
  reauthenticationRequired:
    'For your security, sign in again before you change your two-step verification settings.',
  recentSignInRequired: 'For your security, sign in again to make this change.',
  /** The operators' console (ADR 0058): its users need two-step verification or a passkey on their account. */
  secondFactorRequired:
    'The administration console needs two-step verification or a passkey on your account. Set one up in your account’s security settings, then try again.',
  /** "Confirm it's you" (ADR 0045): the second factor was sent before the password in this session. */
  confirmItsYouPasswordFirst: 'Enter your password first.',
  /** "Confirm it's you" (ADR 0045): the dialog was closed, so the refused change was not sent again. */
  confirmItsYouCancelled: 'The change was not made because you did not confirm it’s you.',
  emailUnchanged: 'This is already your email address.',
  emailNotAvailable: 'This email address cannot be used. Choose another one.',
  emailChangeLinkInvalid: 'This link is not valid or has expired. Ask for a new one from your account page.',
  /** ADR 0050: confirming a method the account has already needs an explicit replace. */
  twoStepMethodExists: 'This method is already set up. To use a new one instead, choose to replace it.',
  lastTwoStepMethodRequired:
    'Two-step verification is required for your account, so its last method cannot be removed. Add another method first.',
  /** A vendor account's local credential (ADR 0041): its password and two-step verification live at its provider. */
  vendorCredentialsOnly:
    'Your account signs in through your company’s provider. Its password and two-step verification are managed there.',
  recoveryCodesUnavailable:
    'These recovery codes have already been shown or have expired. Generate a new set.',
  invalidPhoneNumber: 'Enter the phone number with its country code, for example +44 7700 900123.',
  codeNotSent: 'We could not send the code. Please try again in a few minutes.',
  // one-time-token sign-in (ADR 0019)
  oneTimeLinkInvalid:
    'This sign-in link is not valid, has expired or has already been used. Ask for a new code.',
  oneTimeLinkOtherBrowser:
    'This sign-in link works only in the browser where the code was asked for. Open it there, or type the code there.',
  // status catalogue (SPEC.md §8)
  badRequest: 'Bad Request',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  notFound: 'Not Found',
  internalServerError: 'Internal Server Error',
  badGateway: 'Bad Gateway',
  serviceUnavailable: 'Service Unavailable',
  genericError: 'Generic Error',
  /** A failure with a status only (no code of ours): shown instead of the raw status text (issue 49). */
  unexpectedError: 'Something went wrong. Please try again.',
  offline: 'You are offline. This needs a network connection.',
  // releases in the console (issue 51, ADR 0059)
  releaseUnknownVersion: 'This remote has no published version of that name.',
  /** A build whose federation manifest requires a shared version the shell cannot provide (ADR 0059). */
  releaseIncompatible:
    '{{remote}} {{version}} requires {{package}} {{required}}; the shell provides {{package}} {{provided}}.',
  releaseAlreadyActive: 'This version is already the active one.',
  releaseNoCanary: 'This remote has no canary running.',
  releaseNoEarlierVersion: 'This remote has no earlier version to roll back to.',
  // console grants (issue 52, ADR 0063)
  grantUnknownUser: 'No account has this username.',
  grantUnknownPartner: 'There is no partner with this id.',
  grantUnknownCustomer: 'There is no customer with this id.',
  grantGlobalRole: 'This role applies everywhere: leave partner and customer empty.',
  grantPartnerRequired: 'Support needs the partner whose people it helps.',
  grantSupportTakesNoCustomer: 'Support is for a whole partner: leave the customer empty.',
  grantCustomerRequired: 'A customer administrator needs the customer it administers.',
  grantCustomerOfAnotherPartner: 'This customer belongs to another partner.',
  grantAlreadyGranted: 'This account already holds this grant.',
  grantNotGranted: 'This account holds no such grant.',
  grantLastPlatformAdmin: 'This is the last platform administrator: grant another one first.',
  grantBeyondOwn: 'You can grant only what you hold yourself, where you hold it.',
  // partners and applications in the console (issue 52, ADR 0062)
  partnerLogoTooLarge: 'The logo must be at most {{max}} KB.',
  partnerLogoType: 'The logo must be a PNG, JPEG, WebP or SVG image.',
  partnerLogoScript: 'An SVG logo must not contain scripts, event handlers or embedded content.',
  partnerLanguageUntranslated: '{{language}} has no translation of the sign-in pages.',
  partnerDefaultLanguageNotOffered: 'The default language must be one of the languages offered.',
  partnerPasswordMinAboveMax: 'The minimum length ({{min}}) may not exceed the maximum ({{max}}).',
  partnerCaptchaNeedsKeys: 'reCAPTCHA needs a site key and a secret.',
  applicationExists: 'An application with this client ID exists already.',
  applicationRedirectUri: 'Enter absolute http(s) addresses without a fragment, one per line.',
  upstreamDiscoveryFailed: "The provider's discovery document could not be read: {{detail}}",
  upstreamRoles: 'A vendor provider needs at least one vendor role; a sign-in provider has none.',
  upstreamExists: 'A provider with this ID exists already.',
  upstreamTokenAuthMethod:
    'The provider does not list {{method}} among its token endpoint methods ({{supported}}).',
  upstreamSecretRequired: 'Enter the client secret: only private_key_jwt signs in without one.',
  // console audit search (issue 52, ADR 0063)
  auditToBeforeFrom: 'The end date must not be before the start date.',
  auditOtherPartner: 'You can search only the events of your own partner.',
  // console bulk import, a bad row's reasons (issue 52, ADR 0063)
  importCsvUnclosedQuote: 'Row {{row}}: a quoted field is not closed.',
  importCsvTextAfterQuote: 'Row {{row}}: there is text after a closing quote.',
  importCsvQuoteInField: 'Row {{row}}: a quote is inside an unquoted field.',
  importEmpty: 'The file is empty: a header row is required.',
  importNoRows: 'The file has no rows under its header.',
  importUnknownColumn:
    'Row {{row}}: unknown column "{{column}}" (the columns are id, name, partner, username and roles).',
  importMissingColumn: 'Row {{row}}: the column "{{column}}" is missing.',
  importColumnTwice: 'Row {{row}}: the column "{{column}}" appears twice.',
  importFieldCount: 'Row {{row}}: {{count}} fields, but the header has {{expected}}.',
  importIdEmpty: 'Row {{row}}: the id is empty.',
  importIdTooLong: 'Row {{row}}: the id is longer than {{max}} characters.',
  importIdCharacters: 'Row {{row}}: the id "{{id}}" holds a space or a control character.',
  importNameEmpty: 'Row {{row}}: the name is empty.',
  importNameTooLong: 'Row {{row}}: the name is longer than {{max}} characters.',
  importNameCharacters: 'Row {{row}}: the name holds a control character.',
  importUnknownPartner: 'Row {{row}}: there is no partner "{{partner}}".',
  importUnknownUser: 'Row {{row}}: there is no user "{{username}}".',
  importRolesWithoutUser: 'Row {{row}}: roles are given without a username.',
  importUnknownRole:
    'Row {{row}}: unknown role "{{role}}" (1–7, or EMPLOYEE, MANAGER, VENDOR_SUPPORT, VENDOR_OPERATIONS, VENDOR_PARTNER, ADMIN, HR_ADMIN).',
  importCustomerExists: 'Row {{row}}: the customer "{{id}}" already exists.',
  importCustomerDiffers: 'Row {{row}}: the customer "{{id}}" has another name or partner in row {{earlier}}.',
  importMemberTwice: 'Row {{row}}: "{{username}}" is already a member of "{{id}}" in an earlier row.',
  importCustomerTwice: 'Row {{row}}: the customer "{{id}}" is already in row {{earlier}}.',
} as const;

/** A code listed in {@link ERROR_MESSAGES}. */
export type ErrorCode = keyof typeof ERROR_MESSAGES;

/** True when the text is a known error code. */
export function isErrorCode(value: string): value is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_MESSAGES, value);
}

/** Writes a code with interpolation values as `code|{json}`, or the bare code without values. */
export function formatErrorCode(code: ErrorCode, values?: Record<string, string | number>): string {
  return values && Object.keys(values).length > 0 ? `${code}|${JSON.stringify(values)}` : code;
}

/** Reads `code|{json}` or `code` back; an unknown text is returned as `{ text }` to be shown as it is. */
export function parseErrorCode(
  value: string,
): { code: ErrorCode; values: Record<string, string | number> } | { text: string } {
  const bar = value.indexOf('|');
  const code = bar === -1 ? value : value.slice(0, bar);
  if (!isErrorCode(code)) return { text: value };
  if (bar === -1) return { code, values: {} };
  try {
    const values = JSON.parse(value.slice(bar + 1)) as unknown;
    if (values && typeof values === 'object' && !Array.isArray(values)) {
      return { code, values: values as Record<string, string | number> };
    }
  } catch {
    // fall through: a malformed tail is shown without values
  }
  return { code, values: {} };
}
