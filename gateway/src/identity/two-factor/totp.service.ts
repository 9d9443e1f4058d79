import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/** RFC 6238 as every authenticator app understands it: HMAC-SHA-1, 6 digits, 30-second steps. */
export const TOTP_PERIOD_SECONDS = 30;
const TOTP_DIGITS = 6;
/** One step either side of now is accepted, for clock drift and typing time (S17). */
export const TOTP_WINDOW = 1;
/** 160-bit secrets, the size RFC 4226 §4 recommends for HMAC-SHA-1. */
const SECRET_BYTES = 20;

function totpFor(secretBase32: string, issuer = '', label = ''): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A fresh random authenticator secret, base32 (what the app and the otpauth URI carry). */
export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

/** The time step a moment falls in. */
export function totpStepAt(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS);
}

/**
 * The time step whose code `code` is, within ±{@link TOTP_WINDOW} of `nowMs`, or undefined. otpauth compares the
 * candidates in constant time. Whether the step was used already is the caller's question (S17).
 */
export function matchTotpStep(secretBase32: string, code: string, nowMs: number): number | undefined {
  const delta = totpFor(secretBase32).validate({ token: code, timestamp: nowMs, window: TOTP_WINDOW });
  return delta === null ? undefined : totpStepAt(nowMs) + delta;
}

/** The `otpauth://totp/Issuer:account?secret=…` URI the QR code holds (Key URI Format). */
export function totpUri(secretBase32: string, issuer: string, accountName: string): string {
  return totpFor(secretBase32, issuer, accountName).toString();
}

/** The URI as a QR code, an SVG document rendered here so the page needs no script to draw it. */
export function totpQrSvg(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/** The secret in groups of four, for typing by hand. */
export function groupSecret(secretBase32: string): string {
  return (secretBase32.match(/.{1,4}/g) ?? []).join(' ');
}
