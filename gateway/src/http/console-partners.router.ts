import { Router, type Request, type Response } from 'express';
import { formatErrorCode } from 'shared-contracts';
import {
  consolePartnerRequestSchema,
  MAX_PARTNER_LOGO_BYTES,
  updatePartnerRequestSchema,
  uploadPartnerLogoRequestSchema,
} from 'shared-contracts/console';
import { operatorActor } from '../identity/console/console-actor.js';
import { PartnerChangeError, type PartnersConsoleService } from '../identity/console/partners.service.js';
import { callerOf } from './account-access.js';
import { handle, parse, view } from './plumbing.js';
import { sendFormError, sendValidationProblem } from './problem.js';

/** Dependencies of {@link consolePartnersRouter}. */
export interface ConsolePartnersRouterDeps {
  partnersConsole: PartnersConsoleService;
}

/** A view's parameters: the query string of a GET, the JSON body of a POST. */
function paramsOf(req: Request): unknown {
  return req.method === 'GET' ? req.query : req.body;
}

/**
 * The request body as bytes, at most `limit + 1` of them kept: a larger upload is read to its end (so the client
 * gets the answer rather than a reset connection) but never held in memory.
 */
async function bodyBytes(req: Request, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let kept = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    if (kept > limit) continue;
    chunks.push(chunk);
    kept += chunk.length;
  }
  return Buffer.concat(chunks);
}

function refused(res: Response, error: unknown): void {
  if (!(error instanceof PartnerChangeError)) throw error;
  const text = Object.keys(error.values).length > 0 ? formatErrorCode(error.code, error.values) : error.code;
  sendValidationProblem(res, { [error.field]: [text] });
}

/**
 * The console's Partners calls (issue 52, ADR 0062): ConsolePartners and ConsolePartner (views), UpdatePartner and
 * UploadPartnerLogo (changes, answered with the partner's settings as they now are). Platform administrators only:
 * the rows of `ACCOUNT_CALL_ACCESS`.
 */
export function consolePartnersRouter(deps: ConsolePartnersRouterDeps): Router {
  const { partnersConsole } = deps;
  const router = Router();

  view(router, '/ConsolePartners', async (_req, res) => {
    callerOf(res, 'ConsolePartners');
    res.json({ partners: await partnersConsole.list() });
  });
  view(router, '/ConsolePartner', async (req, res) => {
    callerOf(res, 'ConsolePartner');
    const request = parse(consolePartnerRequestSchema, paramsOf(req), res);
    if (!request) return;
    const settings = await partnersConsole.settings(request.id);
    if (!settings) return sendFormError(res, 'notFound', 404);
    res.json(settings);
  });
  router.post(
    '/UpdatePartner',
    handle(async (req, res) => {
      const caller = callerOf(res, 'UpdatePartner');
      const request = parse(updatePartnerRequestSchema, req.body, res);
      if (!request) return;
      try {
        const settings = await partnersConsole.update(request, operatorActor(caller.user));
        if (!settings) return sendFormError(res, 'notFound', 404);
        res.json(settings);
      } catch (error) {
        refused(res, error);
      }
    }),
  );
  router.post(
    '/UploadPartnerLogo',
    handle(async (req, res) => {
      const caller = callerOf(res, 'UploadPartnerLogo');
      const bytes = await bodyBytes(req, MAX_PARTNER_LOGO_BYTES);
      const request = parse(uploadPartnerLogoRequestSchema, req.query, res);
      if (!request) return;
      try {
        const settings = await partnersConsole.setLogo(
          request.id,
          bytes,
          req.get('content-type'),
          operatorActor(caller.user),
          request.reason,
        );
        if (!settings) return sendFormError(res, 'notFound', 404);
        res.json(settings);
      } catch (error) {
        refused(res, error);
      }
    }),
  );
  return router;
}
