import { Router, type Request, type Response } from 'express';
import { formatErrorCode, type ErrorCode } from 'shared-contracts';
import {
  endCanaryRequestSchema,
  promoteReleaseRequestSchema,
  releaseHealthRequestSchema,
  releaseHistoryRequestSchema,
  rollBackReleaseRequestSchema,
  setCanaryGuardRequestSchema,
  startCanaryRequestSchema,
} from 'shared-contracts/console';
import {
  ReleaseError,
  type ReleaseActor,
  type ReleaseErrorCode,
  type ReleaseService,
} from '../releases/release-service.js';
import { callerOf, type OperatorCaller } from './account-access.js';
import { handle, parse, view } from './plumbing.js';
import { sendValidationProblem } from './problem.js';

/** Dependencies of {@link consoleReleasesRouter}. */
export interface ConsoleReleasesRouterDeps {
  releases: ReleaseService;
}

/**
 * How a refused change answers: a field's mistake is a 400 on that field; a change the state does not allow (no
 * canary to end, no earlier version, the version is active already) a 409 with its code on the form.
 */
const REFUSALS: Record<ReleaseErrorCode, { status: 400 | 409; code: ErrorCode }> = {
  unknownRemote: { status: 400, code: 'invalidValue' },
  unknownVersion: { status: 400, code: 'releaseUnknownVersion' },
  invalidValue: { status: 400, code: 'invalidValue' },
  notABuild: { status: 400, code: 'invalidValue' },
  overwrite: { status: 409, code: 'invalidValue' },
  incompatibleBuild: { status: 400, code: 'releaseIncompatible' },
  releaseAlreadyActive: { status: 409, code: 'releaseAlreadyActive' },
  releaseNoCanary: { status: 409, code: 'releaseNoCanary' },
  releaseNoEarlierVersion: { status: 409, code: 'releaseNoEarlierVersion' },
};

/** The actor of a console change: the operator's username and id, and the reason given. */
function actorOf(caller: OperatorCaller, reason: string | undefined): ReleaseActor {
  const trimmed = reason?.trim();
  return { actor: caller.user.username, userId: caller.user.id, reason: trimmed ? trimmed : null };
}

/** A view's parameters: the query string of a GET, the JSON body of a POST. */
function paramsOf(req: Request): unknown {
  return req.method === 'GET' ? req.query : req.body;
}

/**
 * The console's release calls (issue 51, ADR 0059) over the one release service the CLI uses too: Releases,
 * ReleaseHealth, ReleaseHistory (views) and StartCanary, EndCanary, PromoteRelease, RollBackRelease, SetCanaryGuard
 * (changes, answered with the releases as they now are). Who may call each is its row of `ACCOUNT_CALL_ACCESS`; the
 * handler reads the operator the guard let through.
 */
export function consoleReleasesRouter(deps: ConsoleReleasesRouterDeps): Router {
  const { releases } = deps;
  const router = Router();

  /** Runs a change and answers the releases, or the refusal of a {@link ReleaseError}. */
  async function change(res: Response, run: () => Promise<unknown>): Promise<void> {
    try {
      await run();
    } catch (error) {
      if (!(error instanceof ReleaseError)) throw error;
      const { status, code } = REFUSALS[error.code];
      const text = Object.keys(error.values).length > 0 ? formatErrorCode(code, error.values) : code;
      sendValidationProblem(res, { [error.field]: [text] }, status);
      return;
    }
    res.json(await releases.view());
  }

  view(router, '/Releases', async (_req, res) => {
    callerOf(res, 'Releases');
    res.json(await releases.view());
  });
  view(router, '/ReleaseHealth', async (req, res) => {
    callerOf(res, 'ReleaseHealth');
    const request = parse(releaseHealthRequestSchema, paramsOf(req), res);
    if (!request) return;
    res.json(await releases.health(request.remote, request.window));
  });
  view(router, '/ReleaseHistory', async (req, res) => {
    callerOf(res, 'ReleaseHistory');
    const request = parse(releaseHistoryRequestSchema, paramsOf(req), res);
    if (!request) return;
    try {
      res.json({ events: await releases.history(request) });
    } catch (error) {
      if (!(error instanceof ReleaseError)) throw error;
      sendValidationProblem(res, { [error.field]: ['invalidValue'] });
    }
  });
  router.post(
    '/StartCanary',
    handle(async (req, res) => {
      const caller = callerOf(res, 'StartCanary');
      const request = parse(startCanaryRequestSchema, req.body, res);
      if (!request) return;
      await change(res, () =>
        releases.canary(request.remote, request.version, request.percent, actorOf(caller, request.reason)),
      );
    }),
  );
  router.post(
    '/EndCanary',
    handle(async (req, res) => {
      const caller = callerOf(res, 'EndCanary');
      const request = parse(endCanaryRequestSchema, req.body, res);
      if (!request) return;
      await change(res, () => releases.endCanary(request.remote, actorOf(caller, request.reason)));
    }),
  );
  router.post(
    '/PromoteRelease',
    handle(async (req, res) => {
      const caller = callerOf(res, 'PromoteRelease');
      const request = parse(promoteReleaseRequestSchema, req.body, res);
      if (!request) return;
      await change(res, () =>
        releases.promote(request.remote, request.version, actorOf(caller, request.reason)),
      );
    }),
  );
  router.post(
    '/RollBackRelease',
    handle(async (req, res) => {
      const caller = callerOf(res, 'RollBackRelease');
      const request = parse(rollBackReleaseRequestSchema, req.body, res);
      if (!request) return;
      await change(res, () => releases.rollback(request.remote, actorOf(caller, request.reason)));
    }),
  );
  router.post(
    '/SetCanaryGuard',
    handle(async (req, res) => {
      const caller = callerOf(res, 'SetCanaryGuard');
      const request = parse(setCanaryGuardRequestSchema, req.body, res);
      if (!request) return;
      const { remote, reason, ...guard } = request;
      await change(res, () => releases.setGuard(remote, guard, actorOf(caller, reason)));
    }),
  );
  return router;
}
