/**
 * A cap on new authorizations per source. Every `/connect/authorize` that needs a sign-in stores an interaction
 * (an `oidc_payloads` row or a Redis key, kept for the interaction lifetime), so a loop of anonymous requests could
 * fill the store. Each source (the client IP as TRUST_PROXY resolves it) may start `points` authorizations per
 * `durationSeconds`; past that it gets a 429 page with Retry-After and nothing is stored. The counters live where
 * the login throttle's do: Redis when the gateway has it (shared by the replicas), memory otherwise.
 */
import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { SourceLimit, type InteractionLimit } from '../infra/throttle/source-limit.js';
import { setRetryAfter, waitSeconds } from '../infra/throttle/wait.js';

// The cap itself lives with SourceLimit, which the identity layer also uses (passkey challenges, issue 42).
export { DEFAULT_INTERACTION_LIMIT, type InteractionLimit } from '../infra/throttle/source-limit.js';

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

/** Answers true when the request may go on; otherwise it has answered 429 (or 503 when the counters are down). */
export type InteractionGate = (req: Request, res: Response) => Promise<boolean>;

/** The gate over Redis (`redis` given) or memory; `limit: false` lets everything through. */
export function interactionGate(
  limit: InteractionLimit | false,
  redis: Redis | undefined,
  keyPrefix: string,
): InteractionGate {
  if (limit === false) return () => Promise.resolve(true);
  const limiter = new SourceLimit(redis ? { kind: 'redis', client: redis } : { kind: 'memory' }, {
    points: limit.points,
    durationSeconds: limit.durationSeconds,
    keyPrefix,
  });
  return async (req, res) => {
    const decision = await limiter.take(req.ip ?? req.socket.remoteAddress ?? 'unknown');
    if (decision.allowed) return true;
    res.setHeader('Cache-Control', 'no-store');
    if ('retryAfterSeconds' in decision) {
      const seconds = waitSeconds({ seconds: decision.retryAfterSeconds });
      setRetryAfter(res, { seconds })
        .status(429)
        .type('html')
        .send(
          page(
            'Too many sign-in requests',
            `Too many sign-in requests came from your network. Please try again in ${seconds} seconds.`,
          ),
        );
      return false;
    }
    // Fail closed, as the login throttle does: without counters no new interaction is stored.
    res
      .status(503)
      .type('html')
      .send(page('Sign-in unavailable', 'Sign-in is unavailable at the moment. Please try again shortly.'));
    return false;
  };
}
