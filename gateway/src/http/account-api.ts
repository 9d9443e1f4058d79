import express, { Router } from 'express';
import type { GatewayConfig } from '../config.js';
import type { Identity } from '../identity/identity.js';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import type { ApplicationsConsoleService } from '../identity/console/applications.service.js';
import type { PartnersConsoleService } from '../identity/console/partners.service.js';
import type { PeopleService } from '../identity/console/people.service.js';
import type { ReleaseService } from '../releases/release-service.js';
import { createSessionChanges } from '../identity/account/session-changes.js';
import { accessGuard, type ObjectOwners } from './access-guard.js';
import type { Antiforgery } from './antiforgery.js';
import { captchaGuard, captchaRouter } from './captcha.router.js';
import { consoleApplicationsRouter } from './console-applications.router.js';
import { consoleGrantsRouter } from './console-grants.router.js';
import { consolePartnersRouter } from './console-partners.router.js';
import { consolePeopleRouter } from './console-people.router.js';
import { consoleReleasesRouter } from './console-releases.router.js';
import { consoleRouter } from './console.router.js';
import { customersRouter } from './customers.router.js';
import { loginRouter } from './login.router.js';
import { logoutRouter } from './logout.router.js';
import { oneTimeTokenRouter } from './one-time-token.router.js';
import { partnerRouter } from './partner.router.js';
import { sendFormError } from './problem.js';
import { recoveryRouter } from './recovery.router.js';
import { secureSignInRouter } from './passkeys.router.js';
import { securityCentreRouter, type SecurityCentreRouterDeps } from './security-centre.router.js';
import { sessionRouter } from './session.router.js';
import { statusRouter, type StatusRouterDeps } from './status.router.js';
import { createSignInResponses } from './sign-in-responses.js';
import { smsResend } from './two-factor-sign-in.routes.js';
import { twoFactorRouter } from './two-factor.router.js';
import { vendorRouter } from './vendor.router.js';

/** Dependencies of {@link accountApi}. */
export interface AccountApiDeps {
  config: Pick<GatewayConfig, 'secure'>;
  sessions: RequestSessions;
  antiforgery: Antiforgery;
  identity: Identity;
  /** SystemStatus and Error (SPEC.md §7 "Other"); absent, both calls answer the API's 404. */
  status?: StatusRouterDeps;
  /** Whose passkey or session an id names: the `ownerOf` policies of `ACCOUNT_CALL_ACCESS`. */
  owners: ObjectOwners;
  /** The security centre's service and readers (composed in app.ts); its router is one of this API's. */
  securityCentre: Omit<SecurityCentreRouterDeps, 'sessions' | 'antiforgery' | 'sessionChanges'>;
  /** The one release service of the CLI and the console (ADR 0059): the console's release calls. */
  releases: ReleaseService;
  /** The console's partner settings over the store the CLI writes too (issue 52, ADR 0062). */
  partnersConsole: PartnersConsoleService;
  /** The console's applications (OIDC clients) and upstream providers (issue 52, ADR 0062). */
  applicationsConsole: ApplicationsConsoleService;
  /** The one people service of the CLI and the console (issue 52): the console's People calls. */
  people: PeopleService;
}

/**
 * The account API of SPEC.md §7 under `/api/Account` (case-insensitive): JSON bodies, the anti-forgery check on
 * every non-GET call (S30), the sign-in gate (deny by default while a sign-in is pending), the access guard (who
 * may call each call: `ACCOUNT_CALL_ACCESS`, http/account-access.ts), then one thin router per area (the security
 * centre's among them), and the API's 404 for anything else.
 */
export function accountApi(deps: AccountApiDeps): Router {
  const { sessions, antiforgery, identity } = deps;
  const responses = createSignInResponses({ sessions, antiforgery, signIn: identity.signIn });
  const sessionChanges = createSessionChanges(sessions);
  const router = Router();
  router.use(
    // Account API answers carry or consume secrets (tokens, codes, who is signed in): no cache keeps them unless
    // a call says otherwise (the partner logo does). Issue 39.
    (_req, res, next) => {
      res.set('Cache-Control', 'no-store');
      next();
    },
    express.json({ limit: '64kb' }),
    // Exchange proves itself with the 209 state (or the header); see the handler.
    antiforgery.middleware(
      (req) => req.method === 'POST' && req.path.toLowerCase().replace(/\/$/, '') === '/exchange',
    ),
    responses.gate,
    accessGuard({ ...identity, sessions, responses, owners: deps.owners }),
    sessionRouter({ ...identity, sessions, antiforgery, responses, config: deps.config }),
    partnerRouter({ partners: identity.partners }),
    captchaRouter({ ...identity, sessions, responses }),
    loginRouter({
      ...identity,
      sessions,
      antiforgery,
      responses,
      loginGuard: captchaGuard({ ...identity, sessions, responses }, 'login'),
    }),
    logoutRouter({ sessions, signOut: identity.signOut, responses }),
    customersRouter({ ...identity, sessions, responses }),
    // SendOTP: one route, the one-time-token page's mail (a username, ADR 0019) or the 2FA step's SMS resend.
    oneTimeTokenRouter({
      ...identity,
      sessions,
      responses,
      sendGuard: captchaGuard({ ...identity, sessions, responses }, 'sendOtp'),
      smsResend: [smsResend({ ...identity, sessions, responses, sessionChanges })],
    }),
    twoFactorRouter({ ...identity, sessions, responses, sessionChanges }),
    recoveryRouter({
      ...identity,
      sessions,
      responses,
      recoverGuard: captchaGuard({ ...identity, sessions, responses }, 'recover'),
    }),
    secureSignInRouter({ ...identity, sessions, responses }),
    vendorRouter({
      ...identity,
      sessions,
      responses,
      linkGuard: captchaGuard({ ...identity, sessions, responses }, 'link'),
    }),
    securityCentreRouter({ ...deps.securityCentre, sessions, antiforgery, sessionChanges }),
    consoleReleasesRouter({ releases: deps.releases }),
    consolePartnersRouter({ partnersConsole: deps.partnersConsole }),
    consoleApplicationsRouter({ applicationsConsole: deps.applicationsConsole }),
    consolePeopleRouter({ people: deps.people }),
    consoleRouter(identity),
    consoleGrantsRouter(identity),
  );
  if (deps.status) router.use(statusRouter(deps.status));
  router.use((_req, res) => {
    sendFormError(res, 'notFound', 404);
  });
  return router;
}
