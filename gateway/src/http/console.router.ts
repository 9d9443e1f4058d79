import { Router } from 'express';
import type { ConsoleGrantsService } from '../identity/console/console-grants.service.js';
import { callerOf } from './account-access.js';
import { handle } from './plumbing.js';

/** Dependencies of {@link consoleRouter}. */
export interface ConsoleRouterDeps {
  consoleGrants: Pick<ConsoleGrantsService, 'access'>;
}

/**
 * The operators' console's own calls (issue 51, ADR 0058). `ConsoleAccess` answers any signed-in account with its
 * console grants, the permissions they give and whether it is ready for the console (a second factor or a
 * passkey): the shell shows "Administration" by it and the console shows only what the permissions allow. What a
 * console call itself may do is the access guard's to decide (`ACCOUNT_CALL_ACCESS`), never this answer's.
 */
export function consoleRouter(deps: ConsoleRouterDeps): Router {
  const router = Router();
  router.get(
    '/ConsoleAccess',
    handle(async (_req, res) => {
      const { user } = callerOf(res, 'ConsoleAccess');
      res.json(await deps.consoleGrants.access(user.id));
    }),
  );
  return router;
}
