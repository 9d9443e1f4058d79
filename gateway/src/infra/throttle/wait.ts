/**
 * How long a refused caller has to wait, as the throttle that refused counts it: rate-limiter-flexible's
 * `msBeforeNext`, a counter's window (`{ ms: SEND_WINDOW_MS }`), or seconds a service already worked out.
 */
export type Wait = { ms: number } | { seconds: number };

/**
 * The wait in whole seconds, rounded up and at least 1: the one rounding of every `Retry-After` (RFC 9110 §10.2.3,
 * delta-seconds) and every wait a page shows. A wait that is not a finite number counts as 1 second.
 */
export function waitSeconds(wait: Wait): number {
  const seconds = 'ms' in wait ? wait.ms / 1000 : wait.seconds;
  return Number.isFinite(seconds) ? Math.max(1, Math.ceil(seconds)) : 1;
}

/**
 * Sets `Retry-After` to `wait` in whole seconds ({@link waitSeconds}): the one place that writes the header, for the
 * routers (`http/throttled.ts`) and the OIDC adapter's pages alike. Returns the response for chaining.
 */
export function setRetryAfter<R extends { setHeader(name: string, value: string): unknown }>(
  res: R,
  wait: Wait,
): R {
  res.setHeader('Retry-After', String(waitSeconds(wait)));
  return res;
}
