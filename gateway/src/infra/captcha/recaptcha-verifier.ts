/** Google's documented endpoint (https://developers.google.com/recaptcha/docs/verify). */
export const GOOGLE_SITEVERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';

/** The siteverify answer (https://developers.google.com/recaptcha/docs/verify#api-response, v3 adds score/action). */
export interface SiteverifyAnswer {
  success: boolean;
  /** v3 only: 0.0 (likely a bot) to 1.0. */
  score?: number;
  /** v3 only: the action name the page passed to `grecaptcha.execute`. */
  action?: string;
  challenge_ts?: string;
  hostname?: string;
  'error-codes'?: string[];
}

/** What the token must show besides `success`. */
export interface RecaptchaExpectation {
  version: 2 | 3;
  /** The host of the page the token was made on (the partner's domain the request came to). */
  hostname: string;
  /** v3: the action the page named. */
  action: string;
  /** v3: the lowest score accepted. */
  minScore: number;
}

/** Outcome of {@link verifyRecaptcha}. */
export type RecaptchaVerification =
  | { ok: true }
  | {
      ok: false;
      reason: 'rejected' | 'hostname' | 'action' | 'score' | 'unavailable';
      errorCodes?: string[];
    };

const TIMEOUT_MS = 5_000;

/**
 * Verifies a reCAPTCHA response token server-side (versions 2 and 3): POSTs `secret`, `response` and `remoteip`
 * form-encoded to the verify URL, then checks success, the hostname, and for v3 the action and the score. An
 * unreachable or odd answer refuses (fail closed).
 */
export async function verifyRecaptcha(
  verifyUrl: string,
  secret: string,
  token: string,
  remoteIp: string | undefined,
  expected: RecaptchaExpectation,
): Promise<RecaptchaVerification> {
  let answer: SiteverifyAnswer;
  try {
    const body = new URLSearchParams({ secret, response: token });
    if (remoteIp) body.set('remoteip', remoteIp);
    const response = await fetch(verifyUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) return { ok: false, reason: 'unavailable' };
    answer = (await response.json()) as SiteverifyAnswer;
  } catch {
    return { ok: false, reason: 'unavailable' };
  }
  if (!answer || typeof answer !== 'object' || answer.success !== true)
    return { ok: false, reason: 'rejected', errorCodes: answer?.['error-codes'] ?? [] };
  if (
    typeof answer.hostname !== 'string' ||
    answer.hostname.toLowerCase() !== expected.hostname.toLowerCase()
  )
    return { ok: false, reason: 'hostname' };
  if (expected.version === 3) {
    if (answer.action !== expected.action) return { ok: false, reason: 'action' };
    if (typeof answer.score !== 'number' || answer.score < expected.minScore)
      return { ok: false, reason: 'score' };
  }
  return { ok: true };
}
