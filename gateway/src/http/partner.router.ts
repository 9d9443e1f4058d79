import { Router, type NextFunction, type Request, type Response } from 'express';
import { CULTURE_COOKIE } from 'shared-contracts';
import type { GatewayConfig } from '../config.js';
import type { PartnerService, PartnerShellValues } from '../identity/partner.service.js';
import { sendFormError, sendValidationProblem } from './problem.js';

/** A partner id as the admin CLI creates them. */
const PARTNER_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** The culture cookie lasts a year, like ASP.NET Core's. */
const CULTURE_MAX_AGE_MS = 365 * 24 * 60 * 60 * 1000;

/** Dependencies of {@link partnerRouter}. */
export interface PartnerRouterDeps {
  partners: PartnerService;
  config: Pick<GatewayConfig, 'secure'>;
}

/** The last path segment names the call, case-insensitively (`/api/account/getpartnermetadata` too). */
function callName(req: Request): string {
  return (req.path.split('/').filter(Boolean)[0] ?? '').toLowerCase();
}

/** One query value as a string; repeated or nested values count as invalid. */
function queryValue(req: Request, name: string): string | undefined | null {
  const entry = Object.entries(req.query).find(([key]) => key.toLowerCase() === name.toLowerCase());
  if (!entry || entry[1] === undefined || entry[1] === '') return undefined;
  return typeof entry[1] === 'string' ? entry[1] : null;
}

/**
 * Partner calls of the account API (SPEC.md §7 "Other"), mounted under `/api/Account` after the anti-forgery
 * check, so the POSTs (`GetPartnerMetaData`, `SetLanguage`) need the header like every other non-GET call.
 * - `POST GetPartnerMetaData`: the partner of the request's host (the default partner otherwise).
 * - `GET GetPartnerLogo?partnerId=`: the stored logo, nosniff, SVG only under a CSP sandbox; 404 otherwise.
 * - `POST SetLanguage?language=`: a shipped or partner language; sets `.AspNetCore.Culture` to `c=<l>|uic=<l>`.
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
      if (call === 'setlanguage' && req.method === 'POST') {
        await setLanguage(req, res, deps);
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

async function setLanguage(req: Request, res: Response, deps: PartnerRouterDeps): Promise<void> {
  const fromQuery = queryValue(req, 'language');
  const requested =
    fromQuery === undefined ? (req.body as { language?: unknown } | undefined)?.language : fromQuery;
  if (requested === undefined || requested === '') {
    return sendValidationProblem(res, { language: ['required'] });
  }
  const language = await deps.partners.acceptedLanguage(req.hostname, requested);
  if (!language) return sendValidationProblem(res, { language: ['invalidValue'] });
  // Written raw (`encode: String`) so the value is exactly `c=<l>|uic=<l>`, as the shell writes it; readable by
  // the page (not HttpOnly) because the shell reads its `c=` part at start-up.
  res.cookie(CULTURE_COOKIE, `c=${language}|uic=${language}`, {
    path: '/',
    httpOnly: false,
    secure: deps.config.secure,
    sameSite: 'lax',
    maxAge: CULTURE_MAX_AGE_MS,
    encode: String,
  });
  res.set('Cache-Control', 'no-store').status(200).json({ language });
}

/** The `shellValues` hook of `createApp` (title and colour in the first HTML), from the request's host. */
export function partnerShellValues(partners: PartnerService): (req: Request) => Promise<PartnerShellValues> {
  return (req) => partners.shellValuesForHost(req.hostname);
}
