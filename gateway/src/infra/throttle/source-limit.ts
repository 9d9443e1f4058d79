import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { ThrottleBackend } from './login-throttle.js';
import { waitSeconds } from './wait.js';

/** How many OIDC authorizations one source may start per window (`oidc/interaction-limit.ts`). */
export interface InteractionLimit {
  points: number;
  durationSeconds: number;
}

/**
 * Generous enough for a whole office behind one address opening the applications at nine in the morning, small
 * enough that one source adds at most 7,200 interactions an hour.
 */
export const DEFAULT_INTERACTION_LIMIT: InteractionLimit = { points: 120, durationSeconds: 60 };

/** How many requests one source may make per window. */
export interface SourceLimitOptions {
  points: number;
  durationSeconds: number;
  /** Keeps this limit's counters apart from every other's in a shared Redis. */
  keyPrefix: string;
}

/** Outcome of {@link SourceLimit.take}. */
export type SourceLimitDecision =
  | { allowed: true }
  | { allowed: false; retryAfterSeconds: number }
  /** The counters did not answer: callers refuse (fail closed, as the login throttle does, S8). */
  | { allowed: false; unavailable: true };

/**
 * A cap per source address on a call that stores something for anonymous callers (an OIDC interaction, a WebAuthn
 * challenge), so a loop of requests cannot fill the store. Counters live where the login throttle's do: Redis when
 * the gateway has it (one budget across replicas; commands wait in ioredis's queue while it reconnects), memory
 * otherwise.
 */
export class SourceLimit {
  private readonly limiter: RateLimiterAbstract;

  constructor(backend: ThrottleBackend, options: SourceLimitOptions) {
    const settings = {
      points: options.points,
      duration: options.durationSeconds,
      keyPrefix: options.keyPrefix,
    };
    this.limiter =
      backend.kind === 'redis'
        ? new RateLimiterRedis({ ...settings, storeClient: backend.client })
        : new RateLimiterMemory(settings);
  }

  /** Takes one request of `source`'s budget. */
  async take(source: string): Promise<SourceLimitDecision> {
    try {
      await this.limiter.consume(source);
      return { allowed: true };
    } catch (error) {
      if (error instanceof RateLimiterRes)
        return { allowed: false, retryAfterSeconds: waitSeconds({ ms: error.msBeforeNext }) };
      return { allowed: false, unavailable: true };
    }
  }
}
