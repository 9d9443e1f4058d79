import { Router } from 'express';
import { importCustomersRequestSchema } from 'shared-contracts/console';
import { operatorActor } from '../identity/console/console-actor.js';
import type { ConsoleImportService } from '../identity/console/import.js';
import { callerOf } from './account-access.js';
import { handle, parse } from './plumbing.js';
import { sendValidationProblem } from './problem.js';

/** Dependencies of {@link consoleImportRouter}. */
export interface ConsoleImportRouterDeps {
  consoleImport: ConsoleImportService;
}

/**
 * `ImportCustomers` (issue 52, ADR 0063): the CSV of the admin CLI's `customers import`, checked and stored by the
 * same code, all or nothing; a bad file answers 400 with every bad row (its number and why) under `csv`.
 */
export function consoleImportRouter(deps: ConsoleImportRouterDeps): Router {
  const router = Router();
  router.post(
    '/ImportCustomers',
    handle(async (req, res) => {
      const caller = callerOf(res, 'ImportCustomers');
      const request = parse(importCustomersRequestSchema, req.body, res);
      if (!request) return;
      const reason = request.reason?.trim();
      const outcome = await deps.consoleImport.importCustomers(
        request.csv,
        operatorActor(caller.user),
        reason ? reason : null,
      );
      if (outcome.kind === 'bad') {
        sendValidationProblem(res, { csv: outcome.errors });
        return;
      }
      res.json({ customers: outcome.customers, memberships: outcome.memberships });
    }),
  );
  return router;
}
