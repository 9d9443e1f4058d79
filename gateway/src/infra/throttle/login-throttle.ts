import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
  type IRateLimiterOptions,
} from 'rate-limiter-flexible';
import { sha256 } from '../crypto/tokens.js';
import { waitSeconds } from './wait.js';

/** Limits of the sign-in throttle (SECURITY-CHECKLIST S4–S8). */
export interface ThrottleLimits {
  /** Consecutive failures per account + source (or + known browser) within the window before a soft lockout (S7). */
  perAccountSource: number;
  /** Failures per account from strangers (unknown browsers and sources), all sources, per window (S4: at most 100). */
  perAccount: number;
  /** Failures per source from strangers over all accounts within the window (password spraying). */
  perSource: number;
  /** Failures per account + source answered without delay; after them the delay doubles each time. */
  freeFailures: number;
  /** Upper bound of one growing delay, in seconds. */
  maxDelaySeconds: number;
  /** Length of the counting window, in seconds (≤ 1 h keeps the lockout time-bounded). */
  windowSeconds: number;
  /** How long a source address stays known to an account after a successful sign-in from it, in seconds. */
  knownSourceSeconds: number;
}

/**
 * Defaults: 10 per account+source, 100 per account per hour, 100 per source, delays from the 4th failure; a source
 * stays known for 30 days after a success.
 */
export const DEFAULT_THROTTLE_LIMITS: ThrottleLimits = {
  perAccountSource: 10,
  perAccount: 100,
  perSource: 100,
  freeFailures: 3,
  maxDelaySeconds: 60,
  windowSeconds: 3600,
  knownSourceSeconds: 30 * 24 * 3600,
};

/** The throttle's store did not answer: callers must refuse the attempt (fail closed, S8). */
export class ThrottleUnavailableError extends Error {
  constructor(cause: unknown) {
    super('throttle store unavailable', { cause });
    this.name = 'ThrottleUnavailableError';
  }
}

/** Who is attempting what: the caller resolves the account before any counter is touched. */
export interface ThrottleSubject {
  /**
   * The account the login resolves to (`user:<id>`), or the login as the user lookup normalises it when it matches
   * nobody (`login:<normalised>`): every spelling of one account shares one budget (S4).
   */
  account: string;
  /** Source address (`req.ip` under TRUST_PROXY). */
  source: string;
  /** Id of a device the caller verified as known to this account (signed cookie), if any. */
  device?: string | undefined;
}

/** A reserved attempt; hand it back to {@link LoginThrottle.failed} or {@link LoginThrottle.succeeded}. */
export interface ThrottleAttempt {
  readonly failuresBefore: number;
  /** True when judged as the account's known browser or source: only its own counter was reserved. */
  readonly known: boolean;
  readonly keys: { own: string; account: string; source: string; knownSource: string };
}

/** Outcome of {@link LoginThrottle.begin}. */
export type ThrottleDecision =
  | { allowed: true; failuresBefore: number; attempt: ThrottleAttempt }
  | {
      allowed: false;
      retryAfterSeconds: number;
      /**
       * Set when a counter that strangers share (per account, per source) refused: a solved challenge could let
       * the attempt through, unlike the attempt's own delay or lockout.
       */
      challenge?: 'captcha';
    };

/** Which backend holds the counters. */
export type ThrottleBackend = { kind: 'memory' } | { kind: 'redis'; client: Redis };

/** The memory store expires keys with a timer; Node runs a longer timer (over 2^31 - 1 ms) at once. */
const MAX_MEMORY_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

function limiter(backend: ThrottleBackend, options: IRateLimiterOptions): RateLimiterAbstract {
  return backend.kind === 'redis'
    ? new RateLimiterRedis({ ...options, storeClient: backend.client, rejectIfRedisNotReady: true })
    : new RateLimiterMemory(options);
}

/**
 * Sign-in throttle. Every attempt reserves its place with an atomic `consume` BEFORE the password is checked, so
 * N parallel wrong passwords evaluate at most the limit (S5). An attempt from a device or source the account
 * signed in from before is judged only by its own counter, so strangers filling the account's or the source's
 * shared counters never refuse the owner (S7). A failure past the free ones blocks the attempt's own key for a
 * doubling delay. Store errors throw {@link ThrottleUnavailableError}: the caller refuses (S8).
 */
export class LoginThrottle {
  private readonly own: RateLimiterAbstract;
  private readonly account: RateLimiterAbstract;
  private readonly source: RateLimiterAbstract;
  private readonly delay: RateLimiterAbstract;
  private readonly knownSources: RateLimiterAbstract;

  constructor(
    backend: ThrottleBackend,
    limits: Partial<ThrottleLimits> = DEFAULT_THROTTLE_LIMITS,
    prefix = 'idp:throttle',
  ) {
    this.backend = backend;
    this.prefix = prefix;
    this.limits = { ...DEFAULT_THROTTLE_LIMITS, ...limits };
    const duration = this.limits.windowSeconds;
    this.own = limiter(backend, {
      keyPrefix: `${prefix}:as`,
      points: this.limits.perAccountSource,
      duration,
    });
    this.account = limiter(backend, { keyPrefix: `${prefix}:a`, points: this.limits.perAccount, duration });
    this.source = limiter(backend, { keyPrefix: `${prefix}:s`, points: this.limits.perSource, duration });
    this.delay = limiter(backend, { keyPrefix: `${prefix}:d`, points: 1, duration: 1 });
    this.knownSourceSeconds =
      backend.kind === 'memory'
        ? Math.min(this.limits.knownSourceSeconds, MAX_MEMORY_SECONDS)
        : this.limits.knownSourceSeconds;
    this.knownSources = limiter(backend, {
      keyPrefix: `${prefix}:k`,
      points: 1,
      duration: this.knownSourceSeconds,
    });
  }

  readonly limits: ThrottleLimits;
  /** Where the counters live and under which prefix: other per-source limits keep theirs beside them. */
  readonly backend: ThrottleBackend;
  readonly prefix: string;
  private readonly knownSourceSeconds: number;

  // Keys are hashes: the store never holds what people typed, and unknown and known names cost the same.
  private keys(subject: ThrottleSubject) {
    const account = sha256(subject.account);
    const accountSource = `${account}:${subject.source}`;
    return {
      account,
      source: subject.source,
      knownSource: accountSource,
      // A known browser has a counter of its own, so strangers behind the same address cannot spend it.
      own: subject.device === undefined ? accountSource : `${account}:d:${sha256(subject.device)}`,
    };
  }

  /** Reserves one attempt for the subject; refused while its own key is delayed or a counter is spent. */
  async begin(subject: ThrottleSubject): Promise<ThrottleDecision> {
    const keys = this.keys(subject);
    try {
      const [delayed, knownSource] = await Promise.all([
        this.delay.get(keys.own),
        this.knownSources.get(keys.knownSource),
      ]);
      if (delayed && delayed.consumedPoints > 1 && delayed.msBeforeNext > 0) {
        return { allowed: false, retryAfterSeconds: waitSeconds({ ms: delayed.msBeforeNext }) };
      }
      const known = subject.device !== undefined || (knownSource?.consumedPoints ?? 0) > 0;
      const counters: [RateLimiterAbstract, string][] = known
        ? [[this.own, keys.own]]
        : [
            [this.own, keys.own],
            [this.account, keys.account],
            [this.source, keys.source],
          ];
      const taken: [RateLimiterAbstract, string][] = [];
      let failuresBefore = 0;
      for (const [rl, key] of counters) {
        try {
          const res = await rl.consume(key);
          if (rl === this.own) failuresBefore = res.consumedPoints - 1;
          taken.push([rl, key]);
        } catch (error) {
          if (!(error instanceof RateLimiterRes)) throw error;
          // Give back what this refused attempt reserved, so a refusal is not counted as a failure.
          await Promise.all(taken.map(([t, k]) => t.reward(k)));
          const retryAfterSeconds = waitSeconds({ ms: error.msBeforeNext });
          return rl === this.own
            ? { allowed: false, retryAfterSeconds }
            : { allowed: false, retryAfterSeconds, challenge: 'captcha' };
        }
      }
      return { allowed: true, failuresBefore, attempt: { failuresBefore, known, keys } };
    } catch (error) {
      throw new ThrottleUnavailableError(error);
    }
  }

  /**
   * Reads the counters of a subject without reserving anything: how many failures its own key, the account and
   * the source hold in the window. A known browser or source is judged by its own counter only (S7), so the
   * shared counts read 0 for it. The captcha decides "on risk" from this (ADR 0014).
   */
  async peek(subject: ThrottleSubject): Promise<{ own: number; account: number; source: number }> {
    const keys = this.keys(subject);
    try {
      const [own, account, source, knownSource] = await Promise.all([
        this.own.get(keys.own),
        this.account.get(keys.account),
        this.source.get(keys.source),
        this.knownSources.get(keys.knownSource),
      ]);
      const known = subject.device !== undefined || (knownSource?.consumedPoints ?? 0) > 0;
      return {
        own: own?.consumedPoints ?? 0,
        account: known ? 0 : (account?.consumedPoints ?? 0),
        source: known ? 0 : (source?.consumedPoints ?? 0),
      };
    } catch (error) {
      throw new ThrottleUnavailableError(error);
    }
  }

  /**
   * Clears an account's shared counter of strangers' failures (the console's "clear the sign-in throttle", issue
   * 52): the account answers without a captcha challenge again. `account` is a subject's account (`user:<id>`).
   * Each source's own counter and delay are keyed by the source and stay: they end with their window.
   */
  async clearAccount(account: string): Promise<void> {
    try {
      await this.account.delete(sha256(account));
    } catch (error) {
      throw new ThrottleUnavailableError(error);
    }
  }

  /** The attempt failed: start or grow its own delay once the free failures are used. */
  async failed(attempt: ThrottleAttempt): Promise<void> {
    const failures = attempt.failuresBefore + 1;
    if (failures <= this.limits.freeFailures) return;
    const seconds = Math.min(2 ** (failures - this.limits.freeFailures - 1), this.limits.maxDelaySeconds);
    try {
      await this.delay.block(attempt.keys.own, seconds);
    } catch (error) {
      throw new ThrottleUnavailableError(error);
    }
  }

  /**
   * The attempt succeeded: its own consecutive-failure counter and delay start again, the shared counters get
   * back the place it reserved (a success is no failure), and the source becomes known to the account. What
   * strangers spent on the shared counters stays spent: the owner's success does not refill their budget.
   */
  async succeeded(attempt: ThrottleAttempt): Promise<void> {
    const { keys } = attempt;
    try {
      await Promise.all([
        this.own.delete(keys.own),
        this.delay.delete(keys.own),
        ...(attempt.known ? [] : [this.account.reward(keys.account), this.source.reward(keys.source)]),
        this.knownSources.set(keys.knownSource, 1, this.knownSourceSeconds),
      ]);
    } catch (error) {
      throw new ThrottleUnavailableError(error);
    }
  }
}
