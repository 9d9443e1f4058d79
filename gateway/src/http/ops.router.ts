import express, { Router, type Request } from 'express';
import type { Logger } from 'pino';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { ASSET_VERSION, clientErrorReportSchema } from 'shared-contracts';
import type { Metrics } from '../infra/metrics.js';
import { isRemoteId, type ReleaseRegistry } from '../releases/release-registry.js';
import { readCookie } from './cookies.js';
import { setRetryAfter } from '../infra/throttle/wait.js';

/** Where a report's remote version comes from and where it is counted (`admin errors`). */
export interface ClientErrorVersions {
  releases: Pick<ReleaseRegistry, 'manifest' | 'read'>;
  /** Name of the canary bucket cookie (`cookieNames(config).bucket`). */
  bucketCookie: string;
  /**
   * Where accepted reports are counted (releases/health-counter.ts): buffered, then added per minute to the store's
   * `client_error_counts` (`admin errors`) and, for `remote-load` reports, as load failures of the version.
   */
  counts: { clientError(remote: string, version: string, kind: string): void };
}

/**
 * The remote a report names (`origin`: a remote id, or the shell) and the version this browser was given: the
 * manifest its canary bucket cookie selects, so canary and active versions are told apart.
 */
export function reportedVersion(
  req: Request,
  origin: string | undefined,
  versions: Pick<ClientErrorVersions, 'releases' | 'bucketCookie'>,
): { remote: string; version: string } {
  if (origin === undefined || origin === 'shell') return { remote: 'shell', version: ASSET_VERSION };
  if (!isRemoteId(origin)) return { remote: 'other', version: 'unknown' };
  const bucket = Number(readCookie(req, versions.bucketCookie));
  const version =
    Number.isInteger(bucket) && bucket >= 0 && bucket <= 99
      ? versions.releases.manifest(bucket).remotes[origin]?.version
      : versions.releases.read().remotes[origin]?.active;
  return { remote: origin, version: version ?? 'unknown' };
}

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
export function opsRouter(
  logger: Logger,
  metrics: Metrics,
  limits = DEFAULT_CLIENT_ERROR_LIMITS,
  versions?: ClientErrorVersions,
): Router {
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
      setRetryAfter(res, { ms: error.msBeforeNext }).status(429).end();
      return;
    }
    metrics.inc('client_error_reports_total', { kind: parsed.data.kind, outcome: 'accepted' });
    const { remote, version } = versions
      ? reportedVersion(req, parsed.data.origin, versions)
      : { remote: 'unknown', version: 'unknown' };
    metrics.inc('client_error_reports_by_version_total', { remote, version, kind: parsed.data.kind });
    logger.warn(
      { clientError: parsed.data, remote, version, ip: req.ip, requestId: req.id },
      'client error report',
    );
    // Counted for `admin errors` and the version's health: in memory now, in the store within seconds.
    versions?.counts.clientError(remote, version, parsed.data.kind);
    res.status(202).end();
  });
  return router;
}
