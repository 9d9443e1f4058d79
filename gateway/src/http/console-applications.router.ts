import { Router, type Response } from 'express';
import {
  createApplicationRequestSchema,
  createUpstreamRequestSchema,
  disableUpstreamRequestSchema,
  updateUpstreamRequestSchema,
  disableApplicationRequestSchema,
  rotateApplicationSecretRequestSchema,
  updateApplicationRequestSchema,
} from 'shared-contracts/console';
import {
  ApplicationExistsError,
  type ApplicationsConsoleService,
} from '../identity/console/applications.service.js';
import {
  UpstreamChangeError,
  type UpstreamsConsoleService,
} from '../identity/console/applications-upstreams.service.js';
import { operatorActor } from '../identity/console/console-actor.js';
import { callerOf } from './account-access.js';
import { handle, parse, view } from './plumbing.js';
import { sendFormError, sendValidationProblem } from './problem.js';

/** Dependencies of {@link consoleApplicationsRouter}. */
export interface ConsoleApplicationsRouterDeps {
  applicationsConsole: ApplicationsConsoleService;
  upstreamsConsole: UpstreamsConsoleService;
}

/**
 * The console's application calls (issue 52, ADR 0062): ConsoleApplications (view), CreateApplication,
 * UpdateApplication, DisableApplication and RotateApplicationSecret. Platform administrators only (the rows of
 * `ACCOUNT_CALL_ACCESS`), and the upstream providers' ConsoleUpstreams, CreateUpstream, UpdateUpstream and
 * DisableUpstream; a client secret is in the answers of CreateApplication and RotateApplicationSecret only.
 */
export function consoleApplicationsRouter(deps: ConsoleApplicationsRouterDeps): Router {
  const { applicationsConsole, upstreamsConsole } = deps;

  /** Runs an upstream change; its refusal is the field's error. */
  async function upstreamChange(res: Response, run: () => Promise<unknown>): Promise<void> {
    try {
      const answer = await run();
      if (!answer) return sendFormError(res, 'notFound', 404);
      res.json(answer);
    } catch (error) {
      if (!(error instanceof UpstreamChangeError)) throw error;
      sendValidationProblem(res, { [error.field]: [error.text] }, error.status);
    }
  }
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
  view(router, '/ConsoleUpstreams', async (_req, res) => {
    callerOf(res, 'ConsoleUpstreams');
    res.json({ upstreams: await upstreamsConsole.list() });
  });
  router.post(
    '/CreateUpstream',
    handle(async (req, res) => {
      const caller = callerOf(res, 'CreateUpstream');
      const request = parse(createUpstreamRequestSchema, req.body, res);
      if (!request) return;
      await upstreamChange(res, () => upstreamsConsole.create(request, operatorActor(caller.user)));
    }),
  );
  router.post(
    '/UpdateUpstream',
    handle(async (req, res) => {
      const caller = callerOf(res, 'UpdateUpstream');
      const request = parse(updateUpstreamRequestSchema, req.body, res);
      if (!request) return;
      await upstreamChange(res, () => upstreamsConsole.update(request, operatorActor(caller.user)));
    }),
  );
  router.post(
    '/DisableUpstream',
    handle(async (req, res) => {
      const caller = callerOf(res, 'DisableUpstream');
      const request = parse(disableUpstreamRequestSchema, req.body, res);
      if (!request) return;
      await upstreamChange(res, () =>
        upstreamsConsole.setDisabled(
          request.id,
          request.disabled ?? true,
          operatorActor(caller.user),
          request.reason,
        ),
      );
    }),
  );
  return router;
}
