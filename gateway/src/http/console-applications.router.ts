import { Router } from 'express';
import {
  createApplicationRequestSchema,
  disableApplicationRequestSchema,
  rotateApplicationSecretRequestSchema,
  updateApplicationRequestSchema,
} from 'shared-contracts/console';
import {
  ApplicationExistsError,
  type ApplicationsConsoleService,
} from '../identity/console/applications.service.js';
import { operatorActor } from '../identity/console/console-actor.js';
import { callerOf } from './account-access.js';
import { handle, parse, view } from './plumbing.js';
import { sendFormError, sendValidationProblem } from './problem.js';

/** Dependencies of {@link consoleApplicationsRouter}. */
export interface ConsoleApplicationsRouterDeps {
  applicationsConsole: ApplicationsConsoleService;
}

/**
 * The console's application calls (issue 52, ADR 0062): ConsoleApplications (view), CreateApplication,
 * UpdateApplication, DisableApplication and RotateApplicationSecret. Platform administrators only (the rows of
 * `ACCOUNT_CALL_ACCESS`); a client secret is in the answers of CreateApplication and RotateApplicationSecret only.
 */
export function consoleApplicationsRouter(deps: ConsoleApplicationsRouterDeps): Router {
  const { applicationsConsole } = deps;
  const router = Router();

  view(router, '/ConsoleApplications', async (_req, res) => {
    callerOf(res, 'ConsoleApplications');
    res.json({ applications: await applicationsConsole.list() });
  });
  router.post(
    '/CreateApplication',
    handle(async (req, res) => {
      const caller = callerOf(res, 'CreateApplication');
      const request = parse(createApplicationRequestSchema, req.body, res);
      if (!request) return;
      try {
        res.json(await applicationsConsole.create(request, operatorActor(caller.user)));
      } catch (error) {
        if (!(error instanceof ApplicationExistsError)) throw error;
        sendValidationProblem(res, { clientId: ['applicationExists'] }, 409);
      }
    }),
  );
  router.post(
    '/UpdateApplication',
    handle(async (req, res) => {
      const caller = callerOf(res, 'UpdateApplication');
      const request = parse(updateApplicationRequestSchema, req.body, res);
      if (!request) return;
      const updated = await applicationsConsole.update(request, operatorActor(caller.user));
      if (!updated) return sendFormError(res, 'notFound', 404);
      res.json(updated);
    }),
  );
  router.post(
    '/DisableApplication',
    handle(async (req, res) => {
      const caller = callerOf(res, 'DisableApplication');
      const request = parse(disableApplicationRequestSchema, req.body, res);
      if (!request) return;
      const updated = await applicationsConsole.setDisabled(
        request.clientId,
        request.disabled ?? true,
        operatorActor(caller.user),
        request.reason,
      );
      if (!updated) return sendFormError(res, 'notFound', 404);
      res.json(updated);
    }),
  );
  router.post(
    '/RotateApplicationSecret',
    handle(async (req, res) => {
      const caller = callerOf(res, 'RotateApplicationSecret');
      const request = parse(rotateApplicationSecretRequestSchema, req.body, res);
      if (!request) return;
      const rotated = await applicationsConsole.rotateSecret(
        request.clientId,
        operatorActor(caller.user),
        request.reason,
      );
      if (!rotated) return sendFormError(res, 'notFound', 404);
      if (rotated === 'public') return sendValidationProblem(res, { clientId: ['invalidValue'] }, 409);
      res.json(rotated);
    }),
  );
  return router;
}
