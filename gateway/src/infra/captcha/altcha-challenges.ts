import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Clock } from '../clock.js';

/**
 * How much work a challenge asks, by risk (ADR 0014). The counter the browser must find is drawn from this range
 * (deterministic mode: the server knows the key it leads to and signs it, so verifying costs one hash).
 */
export const ALTCHA_DIFFICULTY = {
  normal: { min: 5_000, max: 50_000 },
  high: { min: 100_000, max: 400_000 },
} as const;
/** A difficulty level of {@link ALTCHA_DIFFICULTY}. */
export type AltchaDifficulty = keyof typeof ALTCHA_DIFFICULTY;

/** How long a challenge may be solved and handed in after it was issued. */
export const ALTCHA_CHALLENGE_TTL_MS = 3 * 60_000;

// SHA-256 (the widget's bundled worker and Web Crypto in every browser); one iteration per counter value.
const ALGORITHM = 'SHA-256';

/** What a challenge is bound to: signed into it, so a solution is only worth something for this binding (S9). */
export interface AltchaBinding {
  action: string;
  /** A hash of the session the challenge was issued to (never the session id itself: the challenge is public). */
  session: string;
}

/** Outcome of {@link AltchaChallenges.verify}. */
export type AltchaVerification =
  | { ok: true; binding: AltchaBinding; id: string }
  | { ok: false; reason: 'malformed' | 'invalid' | 'expired' };

function decodePayload(token: string): { challenge: Challenge; solution: Solution } | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as unknown;
    if (!parsed || typeof parsed !== 'object') return undefined;
    const { challenge, solution } = parsed as { challenge?: unknown; solution?: unknown };
    if (!challenge || typeof challenge !== 'object' || !solution || typeof solution !== 'object')
      return undefined;
    const parameters = (challenge as { parameters?: unknown }).parameters;
    if (!parameters || typeof parameters !== 'object') return undefined;
    return { challenge: challenge as Challenge, solution: solution as Solution };
  } catch {
    return undefined;
  }
}

/**
 * The self-hosted proof-of-work captcha (version 1): ALTCHA challenges signed with HMAC keys derived from the
 * gateway's secret, each carrying its action, its session and its expiry in the signed data. Verifying checks the
 * signature, the expiry (on our clock) and the work; single use is the caller's (a key-value take).
 */
export class AltchaChallenges {
  constructor(
    private readonly keys: { signature: string; keySignature: string },
    private readonly clock: Clock,
  ) {}

  async issue(binding: AltchaBinding, difficulty: AltchaDifficulty = 'normal'): Promise<Challenge> {
    const range = ALTCHA_DIFFICULTY[difficulty];
    const expiresAt = Math.floor((this.clock.now() + ALTCHA_CHALLENGE_TTL_MS) / 1000);
    return createChallenge({
      algorithm: ALGORITHM,
      cost: 1,
      counter: randomInt(range.max, range.min),
      deriveKey,
      data: { action: binding.action, session: binding.session },
      expiresAt,
      hmacSignatureSecret: this.keys.signature,
      hmacKeySignatureSecret: this.keys.keySignature,
    });
  }

  /** Checks a widget payload (base64 JSON of the challenge and its solution). */
  async verify(token: string): Promise<AltchaVerification> {
    const payload = decodePayload(token);
    if (!payload) return { ok: false, reason: 'malformed' };
    let result;
    try {
      result = await verifySolution({
        challenge: payload.challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret: this.keys.signature,
        hmacKeySignatureSecret: this.keys.keySignature,
      });
    } catch {
      // A payload built to make the library throw (odd algorithm names, bad numbers) is simply not a solution.
      return { ok: false, reason: 'malformed' };
    }
    const { parameters, signature } = payload.challenge;
    if (result.expired) return { ok: false, reason: 'expired' };
    if (!result.verified || !signature) return { ok: false, reason: 'invalid' };
    // The signature covers the parameters, so these are ours. Our clock decides expiry too (tests move it).
    const expiresAt = parameters.expiresAt;
    if (typeof expiresAt !== 'number' || expiresAt * 1000 <= this.clock.now())
      return { ok: false, reason: 'expired' };
    const action = parameters.data?.action;
    const session = parameters.data?.session;
    if (typeof action !== 'string' || typeof session !== 'string') return { ok: false, reason: 'invalid' };
    return { ok: true, binding: { action, session }, id: signature };
  }
}
