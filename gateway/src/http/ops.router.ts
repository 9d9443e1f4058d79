import express, { Router } from 'express';
import type { Logger } from 'pino';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { clientErrorReportSchema } from 'shared-contracts';
import type { Metrics } from '../infra/metrics.js';

/** Limits of the client-error endpoint. */
export interface ClientErrorLimits {
  /** Reports per source address per minute. */
  perSourcePerMinute: number;
  /** Reports logged per minute over all sources; beyond it they are only counted. */
  globalPerMinute: number;
}

/** Defaults: 20 per source and 300 overall per minute; at most ~10 KB each, so a flood is bounded. */
export const DEFAULT_CLIENT_ERROR_LIMITS: ClientErrorLimits = {
  perSourcePerMinute: 20,
  globalPerMinute: 300,
};

/**
 * `POST /api/ops/client-errors`: the shell's error reports (SPEC.md §1), validated by the shared schema, logged
 * as structured JSON and counted. Rate-limited per source and overall so a flood cannot fill a disk.
 */
export function opsRouter(logger: Logger, metrics: Metrics, limits = DEFAULT_CLIENT_ERROR_LIMITS): Router {
  const router = Router();
  const perSource = new RateLimiterMemory({ points: limits.perSourcePerMinute, duration: 60 });
  const global = new RateLimiterMemory({ points: limits.globalPerMinute, duration: 60 });

  router.post('/client-errors', express.json({ limit: '16kb' }), async (req, res) => {
    const parsed = clientErrorReportSchema.safeParse(req.body);
    if (!parsed.success) {
      metrics.inc('client_error_reports_total', { kind: 'invalid', outcome: 'rejected' });
      res.status(400).json({
        title: 'One or more validation errors occurred.',
        errors: Object.fromEntries(
          parsed.error.issues.map((i) => [String(i.path[0] ?? ''), ['invalidValue']]),
        ),
      });
      return;
    }
    try {
      await perSource.consume(req.ip ?? 'unknown');
      await global.consume('all');
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      metrics.inc('client_error_reports_total', { kind: parsed.data.kind, outcome: 'dropped' });
      res
        .status(429)
        .set('Retry-After', String(Math.ceil(error.msBeforeNext / 1000)))
        .end();
      return;
    }
    metrics.inc('client_error_reports_total', { kind: parsed.data.kind, outcome: 'accepted' });
    logger.warn({ clientError: parsed.data, ip: req.ip, requestId: req.id }, 'client error report');
    res.status(202).end();
  });
  return router;
}
