import { Router, type Request, type Response } from 'express';
import {
  consoleAuditRequestSchema,
  setAuditRetentionRequestSchema,
  type ConsoleAuditRequest,
} from 'shared-contracts/console';
import { operatorActor } from '../identity/console/console-actor.js';
import { auditFilterOf, auditReachOf, type ConsoleAuditService } from '../identity/console/audit-search.js';
import { callerOf } from './account-access.js';
import { handle, parse, view } from './plumbing.js';
import { sendValidationProblem } from './problem.js';

/** Dependencies of {@link consoleAuditRouter}. */
export interface ConsoleAuditRouterDeps {
  consoleAudit: ConsoleAuditService;
}

/** A view's parameters (the query string of a GET, the body of a POST), empty values dropped: no filter. */
function paramsOf(req: Request): unknown {
  const source: unknown = req.method === 'GET' ? req.query : req.body;
  if (typeof source !== 'object' || source === null) return source;
  return Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
}

/**
 * The console's audit search (issue 52, ADR 0063): `ConsoleAudit` answers a page of events, `ConsoleAuditExport`
 * the same filter as a CSV download; `AuditRetention` / `SetAuditRetention` read and set how long events are kept. Support reads its partner's events only: the handler narrows by the caller's
 * grants (the row's scope 'partner' lets a partner-wide grant through) and refuses a filter naming another partner.
 */
export function consoleAuditRouter(deps: ConsoleAuditRouterDeps): Router {
  const { consoleAudit } = deps;
  const router = Router();

  /** The request and its filter within the caller's reach, or undefined once a refusal was sent. */
  function filterOf(req: Request, res: Response, name: 'ConsoleAudit' | 'ConsoleAuditExport') {
    const caller = callerOf(res, name);
    const request: ConsoleAuditRequest | undefined = parse(consoleAuditRequestSchema, paramsOf(req), res);
    if (!request) return undefined;
    const filter = auditFilterOf(request, auditReachOf(caller.grants));
    if ('code' in filter) {
      sendValidationProblem(res, { [filter.field]: [filter.code] }, filter.status);
      return undefined;
    }
    return { request, filter };
  }

  view(router, '/ConsoleAudit', async (req, res) => {
    const found = filterOf(req, res, 'ConsoleAudit');
    if (!found) return;
    res.json(await consoleAudit.search(found.filter, Number(found.request.page ?? '1')));
  });

  router.get(
    '/ConsoleAuditExport',
    handle(async (req, res) => {
      const found = filterOf(req, res, 'ConsoleAuditExport');
      if (!found) return;
      const { from, to } = found.request;
      const name = ['audit', from, to].filter((part) => part !== undefined).join('-');
      res
        .status(200)
        .set('Content-Type', 'text/csv; charset=utf-8')
        .set('Content-Disposition', `attachment; filename="${name}.csv"`)
        .set('Cache-Control', 'no-store')
        .send(await consoleAudit.exportCsv(found.filter));
    }),
  );
  view(router, '/AuditRetention', async (_req, res) => {
    callerOf(res, 'AuditRetention');
    res.json(await consoleAudit.retention());
  });

  router.post(
    '/SetAuditRetention',
    handle(async (req, res) => {
      const caller = callerOf(res, 'SetAuditRetention');
      const request = parse(setAuditRetentionRequestSchema, req.body, res);
      if (!request) return;
      const reason = request.reason?.trim();
      res.json(
        await consoleAudit.setRetention(request.days, operatorActor(caller.user), reason ? reason : null),
      );
    }),
  );
  return router;
}
