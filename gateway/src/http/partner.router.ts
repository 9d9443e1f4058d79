import { Router, type NextFunction, type Request, type Response } from 'express';
import type { PartnerService, PartnerShellValues } from '../identity/partners/partner.service.js';
import { callName, queryValue } from './plumbing.js';
import { sendFormError, sendValidationProblem } from './problem.js';

/** A partner id as the admin CLI creates them. */
const PARTNER_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Dependencies of {@link partnerRouter}. */
export interface PartnerRouterDeps {
  partners: PartnerService;
}

/**
 * Partner calls of the account API (SPEC.md §7 "Other"), mounted under `/api/Account` after the anti-forgery
 * check, so the POST `GetPartnerMetaData` needs the header like every other non-GET call.
 * - `POST GetPartnerMetaData`: the partner of the request's host (the default partner otherwise).
 * - `GET GetPartnerLogo?partnerId=`: the stored logo, nosniff, SVG only under a CSP sandbox; 404 otherwise.
 */
export function partnerRouter(deps: PartnerRouterDeps): Router {
  const router = Router();
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    try {
      const call = callName(req);
      if (call === 'getpartnermetadata' && req.method === 'POST') {
        res.set('Cache-Control', 'no-store').json(await deps.partners.metadataForHost(req.hostname));
        return;
      }
      if (call === 'getpartnerlogo' && (req.method === 'GET' || req.method === 'HEAD')) {
        await sendLogo(req, res, deps.partners);
        return;
      }
      next();
    } catch (error) {
      next(error);
    }
  });
  return router;
}

async function sendLogo(req: Request, res: Response, partners: PartnerService): Promise<void> {
  const partnerId = queryValue(req, 'partnerId');
  if (partnerId === undefined) return sendValidationProblem(res, { partnerId: ['required'] });
  if (partnerId === null || !PARTNER_ID.test(partnerId))
    return sendValidationProblem(res, { partnerId: ['invalidValue'] });
  const logo = await partners.logo(partnerId);
  if (!logo) return sendFormError(res, 'notFound', 404);
  res.set({
    'Content-Type': logo.contentType,
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
    // Short: a partner replacing its logo should show within minutes; `no-cache` would refetch on every page.
    'Cache-Control': 'public, max-age=300',
  });
  // An SVG opened directly is a document: the sandbox keeps any script in it from running in our origin (S34).
  if (logo.sandboxed)
    res.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  res.status(200).end(req.method === 'HEAD' ? undefined : logo.bytes);
}

/** The `shellValues` hook of `createApp` (title and colour in the first HTML), from the request's host. */
export function partnerShellValues(partners: PartnerService): (req: Request) => Promise<PartnerShellValues> {
  return (req) => partners.shellValuesForHost(req.hostname);
}
