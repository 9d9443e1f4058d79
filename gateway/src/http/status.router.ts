import { Router } from 'express';
import { ERROR_ID_PATTERN } from 'shared-contracts';
import type { ErrorRecords } from '../identity/ops/error-records.service.js';
import type { SystemStatusService } from '../identity/ops/system-status.service.js';
import { queryValue, view } from './plumbing.js';
import { sendFormError, sendValidationProblem } from './problem.js';

/** Dependencies of {@link statusRouter}. */
export interface StatusRouterDeps {
  systemStatus: Pick<SystemStatusService, 'current'>;
  errorRecords: Pick<ErrorRecords, 'find'>;
}

/**
 * Status calls of the account API (SPEC.md §7 "Other"), anonymous and answered during a pending sign-in:
 * - `SystemStatus`: overall state, each dependency's state and the versions live (cached a few seconds);
 * - `Error` (query errorId): the safe fields of a recorded error; 404 for an unknown or expired reference, the same
 *   answer whatever the reason, so the page shows its generic text without a hint.
 */
export function statusRouter(deps: StatusRouterDeps): Router {
  const router = Router();

  view(router, '/SystemStatus', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await deps.systemStatus.current());
  });

  view(router, '/Error', async (req, res) => {
    const errorId = queryValue(req, 'errorId');
    if (errorId === undefined) return sendValidationProblem(res, { errorId: ['required'] });
    if (errorId === null || !ERROR_ID_PATTERN.test(errorId))
      return sendValidationProblem(res, { errorId: ['invalidValue'] });
    const record = await deps.errorRecords.find(errorId);
    res.set('Cache-Control', 'no-store');
    if (!record) return sendFormError(res, 'notFound', 404);
    res.json(record);
  });

  return router;
}
