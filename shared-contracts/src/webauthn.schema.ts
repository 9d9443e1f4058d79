import { z } from 'zod/mini';
import { returnUrlQuerySchema } from './user.schema.js';

/**
 * Secure sign-in and device registration payloads (SPEC.md §3): binary values travel as URL-safe base64 without
 * padding (RFC 4648 §5), the field names are the spec's (`clientDataJson`, not the browser's `clientDataJSON`).
 * The browser side converts with {@link toSecureSignInPayload} / {@link toDeviceRegistrationPayload}; the gateway
 * validates with the schemas below and converts back for the WebAuthn library.
 */

/** URL-safe base64 text of at most `max` characters (padding tolerated, never required). */
function base64Url(max: number) {
  return z
    .string('required')
    .check(
      z.minLength(1, 'required'),
      z.maxLength(max, 'invalidValue'),
      z.regex(/^[A-Za-z0-9_-]+={0,2}$/, 'invalidValue'),
    );
}

// WebAuthn credential ids are at most 1023 bytes (WebAuthn L3 §5.1): 1364 base64url characters.
const CREDENTIAL_ID_MAX = 1366;
// authenticatorData and clientDataJSON are small; extensions could grow them, 16 KiB of text is generous.
const SMALL_BLOB_MAX = 16_384;
// An attestation object with a certificate chain: kept under the API's 64 KB JSON body limit.
const ATTESTATION_MAX = 48_000;

/** The public-key credential type, the only one WebAuthn defines. */
const publicKeyType = z.literal('public-key', 'invalidValue');

/** Client extension outputs: an object, never interpreted by the gateway. */
const extensionsSchema = z.optional(z.record(z.string(), z.unknown()));

/** Body of `SecureLogin`: the assertion the device produced (SPEC.md §3 "Secure sign-in credential payload"). */
export const secureSignInPayloadSchema = z.object({
  id: base64Url(CREDENTIAL_ID_MAX),
  rawId: base64Url(CREDENTIAL_ID_MAX),
  type: publicKeyType,
  extensions: extensionsSchema,
  response: z.object({
    authenticatorData: base64Url(SMALL_BLOB_MAX),
    clientDataJson: base64Url(SMALL_BLOB_MAX),
    signature: base64Url(SMALL_BLOB_MAX),
    userHandle: z.optional(z.nullable(base64Url(1024))),
  }),
});
/** Body of `SecureLogin`. */
export type SecureSignInPayload = z.infer<typeof secureSignInPayloadSchema>;

/** Body of `RegisterCredential`: the new credential (SPEC.md §3 "Device registration payload"). */
export const deviceRegistrationPayloadSchema = z.object({
  id: base64Url(CREDENTIAL_ID_MAX),
  rawId: base64Url(CREDENTIAL_ID_MAX),
  type: publicKeyType,
  extensions: extensionsSchema,
  response: z.object({
    attestationObject: base64Url(ATTESTATION_MAX),
    clientDataJson: base64Url(SMALL_BLOB_MAX),
    /** How the browser says it can reach the authenticator again ("internal", "usb", "hybrid", …). */
    transports: z.optional(z.array(z.string().check(z.maxLength(32))).check(z.maxLength(8))),
  }),
});
/** Body of `RegisterCredential`. */
export type DeviceRegistrationPayload = z.infer<typeof deviceRegistrationPayloadSchema>;

/** The longest device name kept. */
export const DEVICE_NAME_MAX = 64;

/** Query of `CredentialOptions`: the name the user gave the device (prefilled from the browser and platform). */
export const credentialOptionsQuerySchema = z.object({
  displayName: z
    .string('required')
    .check(z.trim(), z.minLength(1, 'required'), z.maxLength(DEVICE_NAME_MAX, 'invalidValue')),
});

/** Query of `SecureLogin`. */
export const secureLoginQuerySchema = returnUrlQuerySchema;

/**
 * Body of `SkipFido`. `remember: false` continues the sign-in without recording the skip (the page found nothing
 * to register with); otherwise the offer is not made again for {@link DEVICE_OFFER_SKIP_DAYS} days.
 */
export const skipFidoRequestSchema = z.object({ remember: z._default(z.optional(z.boolean()), true) });
/** Body of `SkipFido` as sent. */
export type SkipFidoRequest = z.input<typeof skipFidoRequestSchema>;

/** Days a skipped device offer stays quiet before the sign-in offers registration again. */
export const DEVICE_OFFER_SKIP_DAYS = 30;

/** What `startAuthentication` of @simplewebauthn/browser returns (AuthenticationResponseJSON), structurally. */
export interface BrowserAssertion {
  id: string;
  rawId: string;
  type: string;
  clientExtensionResults?: object;
  response: { authenticatorData: string; clientDataJSON: string; signature: string; userHandle?: string };
}

/** What `startRegistration` of @simplewebauthn/browser returns (RegistrationResponseJSON), structurally. */
export interface BrowserAttestation {
  id: string;
  rawId: string;
  type: string;
  clientExtensionResults?: object;
  response: { attestationObject: string; clientDataJSON: string; transports?: string[] };
}

/** The browser's assertion as the `SecureLogin` body. */
export function toSecureSignInPayload(assertion: BrowserAssertion): SecureSignInPayload {
  return {
    id: assertion.id,
    rawId: assertion.rawId,
    type: 'public-key',
    extensions: { ...assertion.clientExtensionResults },
    response: {
      authenticatorData: assertion.response.authenticatorData,
      clientDataJson: assertion.response.clientDataJSON,
      signature: assertion.response.signature,
      userHandle: assertion.response.userHandle ?? null,
    },
  };
}

/** The browser's new credential as the `RegisterCredential` body. */
export function toDeviceRegistrationPayload(attestation: BrowserAttestation): DeviceRegistrationPayload {
  return {
    id: attestation.id,
    rawId: attestation.rawId,
    type: 'public-key',
    extensions: { ...attestation.clientExtensionResults },
    response: {
      attestationObject: attestation.response.attestationObject,
      clientDataJson: attestation.response.clientDataJSON,
      ...(attestation.response.transports ? { transports: attestation.response.transports } : {}),
    },
  };
}

/** A registered device as the manage-devices list shows it. */
export const registeredDeviceSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Epoch ms. */
  createdAt: z.number(),
  /** Epoch ms of the last secure sign-in with it, or null. */
  lastUsedAt: z.nullable(z.number()),
});
/** A registered device as the manage-devices list shows it. */
export type RegisteredDevice = z.infer<typeof registeredDeviceSchema>;

/** Answer of `Devices`: the signed-in account's passkeys and security keys, oldest first. */
export const devicesViewSchema = z.object({ devices: z.array(registeredDeviceSchema) });
/** Answer of `Devices`. */
export type DevicesView = z.infer<typeof devicesViewSchema>;

/** Body of `RenameDevice`. */
export const renameDeviceRequestSchema = z.object({
  id: base64Url(CREDENTIAL_ID_MAX),
  name: z
    .string('required')
    .check(z.trim(), z.minLength(1, 'required'), z.maxLength(DEVICE_NAME_MAX, 'invalidValue')),
});
/** Body of `RenameDevice`. */
export type RenameDeviceRequest = z.infer<typeof renameDeviceRequestSchema>;

/** Body of `RemoveDevice`. */
export const removeDeviceRequestSchema = z.object({ id: base64Url(CREDENTIAL_ID_MAX) });
/** Body of `RemoveDevice`. */
export type RemoveDeviceRequest = z.infer<typeof removeDeviceRequestSchema>;
