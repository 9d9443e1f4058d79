import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
  type IRateLimiterOptions,
} from 'rate-limiter-flexible';
import { sha256 } from '../crypto/tokens.js';

/** Limits of the sign-in throttle (SECURITY-CHECKLIST S4–S8). */
export interface ThrottleLimits {
  /** Consecutive failures per account + source within the window before a soft lockout (S7). */
  perAccountSource: number;
  /** Consecutive failures per account, all sources, per hour (S4: at most 100). */
  perAccount: number;
  /** Failures per source over all accounts within the window (password spraying). */
  perSource: number;
  /** Failures per account + source answered without delay; after them the delay doubles each time. */
  freeFailures: number;
  /** Upper bound of one growing delay, in seconds. */
  maxDelaySeconds: number;
  /** Length of the counting window, in seconds (≤ 1 h keeps the lockout time-bounded). */
  windowSeconds: number;
}

/** Defaults: 10 per account+source, 100 per account per hour, 100 per source, delays from the 4th failure. */
export const DEFAULT_THROTTLE_LIMITS: ThrottleLimits = {
  perAccountSource: 10,
  perAccount: 100,
  perSource: 100,
  freeFailures: 3,
  maxDelaySeconds: 60,
  windowSeconds: 3600,
};

/** The throttle's store did not answer: callers must refuse the attempt (fail closed, S8). */
export class ThrottleUnavailableError extends Error {
  constructor(cause: unknown) {
    super('throttle store unavailable', { cause });
    this.name = 'ThrottleUnavailableError';
  }
}

/** Outcome of {@link LoginThrottle.begin}. */
export type ThrottleDecision =
  { allowed: true; failuresBefore: number } | { allowed: false; retryAfterSeconds: number };

/** Which backend holds the counters. */
export type ThrottleBackend = { kind: 'memory' } | { kind: 'redis'; client: Redis };

function limiter(backend: ThrottleBackend, options: IRateLimiterOptions): RateLimiterAbstract {
  return backend.kind === 'redis'
    ? new RateLimiterRedis({ ...options, storeClient: backend.client, rejectIfRedisNotReady: true })
    : new RateLimiterMemory(options);
}

/**
 * Sign-in throttle. Every attempt reserves its place with an atomic `consume` BEFORE the password is checked, so
 * N parallel wrong passwords evaluate at most the limit (S5). A success clears the account's counters; a failure
 * past the free ones blocks the account+source for a doubling delay. Store errors throw
 * {@link ThrottleUnavailableError}: the caller refuses (S8).
 */
export class LoginThrottle {
  private readonly accountSource: RateLimiterAbstract;
  private readonly account: RateLimiterAbstract;
  private readonly source: RateLimiterAbstract;
  private readonly delay: RateLimiterAbstract;

  constructor(
    backend: ThrottleBackend,
    readonly limits: ThrottleLimits = DEFAULT_THROTTLE_LIMITS,
    prefix = 'idp:throttle',
  ) {
    const duration = limits.windowSeconds;
    this.accountSource = limiter(backend, {
      keyPrefix: `${prefix}:as`,
      points: limits.perAccountSource,
      duration,
    });
    this.account = limiter(backend, { keyPrefix: `${prefix}:a`, points: limits.perAccount, duration });
    this.source = limiter(backend, { keyPrefix: `${prefix}:s`, points: limits.perSource, duration });
    this.delay = limiter(backend, { keyPrefix: `${prefix}:d`, points: 1, duration: 1 });
  }

  // The login is hashed: keys do not store what people typed, and unknown and known names cost the same.
  private keys(login: string, ip: string) {
    const account = sha256(login.trim().toLowerCase());
    return { account, accountSource: `${account}:${ip}`, source: ip };
  }

  /** Reserves one attempt for (login, ip); refused while delayed or locked. */
  async begin(login: string, ip: string): Promise<ThrottleDecision> {
    const k = this.keys(login, ip);
    try {
      const delayed = await this.delay.get(k.accountSource);
      if (delayed && delayed.consumedPoints > 1 && delayed.msBeforeNext > 0) {
        return { allowed: false, retryAfterSeconds: Math.ceil(delayed.msBeforeNext / 1000) };
      }
      const taken: RateLimiterAbstract[] = [];
      const keyOf = new Map<RateLimiterAbstract, string>([
        [this.accountSource, k.accountSource],
        [this.account, k.account],
        [this.source, k.source],
      ]);
      let failuresBefore = 0;
      for (const [rl, key] of keyOf) {
        try {
          const res = await rl.consume(key);
          if (rl === this.accountSource) failuresBefore = res.consumedPoints - 1;
          taken.push(rl);
        } catch (error) {
          if (!(error instanceof RateLimiterRes)) throw error;
          // Give back what this refused attempt reserved, so a refusal is not counted as a failure.
          await Promise.all(taken.map((t) => t.reward(keyOf.get(t)!)));
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) };
        }
      }
      return { allowed: true, failuresBefore };
    } catch (error) {
      throw new ThrottleUnavailableError(error);
    }
  }

  /** The attempt failed: start or grow the delay once the free failures are used. */
  async failed(login: string, ip: string, failuresBefore: number): Promise<void> {
    const k = this.keys(login, ip);
    const failures = failuresBefore + 1;
    if (failures <= this.limits.freeFailures) return;
    const seconds = Math.min(2 ** (failures - this.limits.freeFailures - 1), this.limits.maxDelaySeconds);
    try {
      await this.delay.block(k.accountSource, seconds);
    } catch (error) {
      throw new ThrottleUnavailableError(error);
    }
  }

  /** The attempt succeeded: the account's consecutive-failure counters start again. */
  async succeeded(login: string, ip: string): Promise<void> {
    const k = this.keys(login, ip);
    try {
      await Promise.all([
        this.accountSource.delete(k.accountSource),
        this.account.delete(k.account),
        this.delay.delete(k.accountSource),
        this.source.reward(k.source),
      ]);
    } catch (error) {
      throw new ThrottleUnavailableError(error);
    }
  }
}
