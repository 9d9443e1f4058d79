import { randomUUID } from 'node:crypto';
import compression from 'compression';
import express, { type Express, type NextFunction, type Request, type Response, type Router } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';
import type { GatewayConfig } from './config.js';
import { Antiforgery } from './http/antiforgery.js';
import { accountRouter, type OidcLogoutHooks } from './http/account.router.js';
import { requestLocale } from './http/locale.js';
import { opsRouter, type ClientErrorLimits } from './http/ops.router.js';
import { partnerRouter, partnerShellValues } from './http/partner.router.js';
import { sendFormError } from './http/problem.js';
import type { ShellHtmlValues } from './http/render-shell-html.js';
import { remotesRouter } from './http/remotes.router.js';
import { securityHeaders } from './http/security-headers.js';
import { shellRouter } from './http/shell.router.js';
import { createAccountsService } from './identity/accounts.service.js';
import { PartnerService } from './identity/partner.service.js';
import { createSessionAuthService } from './identity/session-auth.service.js';
import { SignInService } from './identity/sign-in/sign-in.service.js';
import { defaultSignInSteps, type SignInStepRegistry } from './identity/sign-in/step-registry.js';
import { systemClock, type Clock } from './infra/clock.js';
import { createLogger } from './infra/logger.js';
import type { Mailer } from './infra/mail/mailer.js';
import { Metrics } from './infra/metrics.js';
import { RequestSessions } from './infra/sessions/request-sessions.js';
import { SessionManager } from './infra/sessions/session-manager.js';
import type { SessionStore } from './infra/sessions/session-store.js';
import type { LoginThrottle } from './infra/throttle/login-throttle.js';
import { ReleaseRegistry } from './releases/release-registry.js';
import type { Store } from './store/store.js';

/** Services the OIDC mount (and later routers) use; also on `app.locals.identity`. */
export interface IdentityServices {
  /** `{ accountId, authTime, amr }` of the request's signed-in account, or undefined. */
  getSignedInAccount: ReturnType<typeof createSessionAuthService>['getSignedInAccount'];
  /** Ends the gateway session (old cookie dead: S27) and starts an anonymous one. */
  signOut: ReturnType<typeof createSessionAuthService>['signOut'];
  /** Claims of an account for tokens: sub, name, email, roles, customer. */
  findAccount: ReturnType<typeof createAccountsService>['findAccount'];
  sessions: RequestSessions;
  signIn: SignInService;
  antiforgery: Antiforgery;
  store: Store;
  config: GatewayConfig;
  clock: Clock;
  logger: Logger;
}

/**
 * The OIDC provider as the gateway sees it (implemented in `src/oidc/`): `mount` adds `/connect/*`,
 * `/.well-known/*` and `/interaction/*` before the shell fallback; the optional hooks serve `LogoutView`/`Logout`.
 */
export interface OidcMount extends OidcLogoutHooks {
  mount(app: Express, services: IdentityServices): void;
  /** True when the provider answers (readiness); optional. */
  ping?(): Promise<boolean>;
}

/** What {@link createApp} needs; tests inject each part. */
export interface AppDeps {
  config: GatewayConfig;
  store: Store;
  sessionStore: SessionStore;
  throttle: LoginThrottle;
  clock?: Clock;
  mailer?: Mailer;
  logger?: Logger;
  oidc?: OidcMount;
  releases?: ReleaseRegistry;
  signInSteps?: SignInStepRegistry;
  metrics?: Metrics;
  clientErrorLimits?: ClientErrorLimits;
  /** Extra account API routers (later issues, e.g. the partner router), mounted after the anti-forgery check. */
  accountRouters?: Router[];
  /** Hook for issue 4: partner title/colour for the shell's first HTML. */
  shellValues?: (req: Request) => Promise<Omit<ShellHtmlValues, 'nonce'>>;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Builds the gateway's Express app without listening (tests run it in-process). */
export function createApp(deps: AppDeps): Express {
  const { config, store } = deps;
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? createLogger(config.logLevel);
  const metrics = deps.metrics ?? new Metrics();
  const releases = deps.releases ?? new ReleaseRegistry(config.dataDir);
  const now = () => clock.now();

  const manager = new SessionManager(
    deps.sessionStore,
    { idleMs: config.sessionIdleMs, absoluteMs: config.sessionAbsoluteMs },
    now,
  );
  const sessions = new RequestSessions(manager, config);
  const antiforgery = new Antiforgery(config, sessions, now);
  const signIn = new SignInService(
    store,
    sessions,
    deps.throttle,
    deps.signInSteps ?? defaultSignInSteps(),
    clock,
    {
      signIn: (result) => metrics.inc('sign_ins_total', { result }),
    },
  );
  const auth = createSessionAuthService(store, sessions);
  const accounts = createAccountsService(store);
  const partners = new PartnerService(store.partners);
  const services: IdentityServices = {
    getSignedInAccount: auth.getSignedInAccount,
    signOut: auth.signOut,
    findAccount: accounts.findAccount,
    sessions,
    signIn,
    antiforgery,
    store,
    config,
    clock,
    logger,
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.locals.identity = services;

  app.use(
    pinoHttp({
      logger,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
    }),
  );
  app.use((_req, res, next) => {
    res.on('finish', () =>
      metrics.inc('http_requests_total', { status: `${Math.floor(res.statusCode / 100)}xx` }),
    );
    next();
  });
  app.use(compression());
  app.use(securityHeaders({ hsts: config.secure }));

  app.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const [database, sessionStore, oidc] = await Promise.all([
      store.database.ping(),
      manager.ping(),
      deps.oidc?.ping ? deps.oidc.ping().catch(() => false) : Promise.resolve(true),
    ]);
    const ready = database && sessionStore && oidc;
    res
      .status(ready ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({ status: ready ? 'ready' : 'unavailable', database, sessionStore, oidc });
  });
  app.get('/metrics', (_req, res) => {
    res.set('Cache-Control', 'no-store').type('text/plain; version=0.0.4').send(metrics.render());
  });

  // Messages of the API in the visitor's language (issue 4); the errors map itself keeps the codes.
  app.use(
    '/api',
    requestLocale(async (host) => (await partners.forHost(host))?.defaultLanguage),
  );
  app.use('/api/ops', opsRouter(logger, metrics, deps.clientErrorLimits));
  app.use(
    '/api/Account',
    express.json({ limit: '64kb' }),
    // Exchange proves itself with the 209 state (or the header); see the handler.
    antiforgery.middleware(
      (req) => req.method === 'POST' && req.path.toLowerCase().replace(/\/$/, '') === '/exchange',
    ),
    ...(deps.accountRouters ?? []),
    partnerRouter({ partners, config }),
    accountRouter({ store, sessions, antiforgery, signIn, auth, oidc: deps.oidc, now }),
  );
  app.use('/remotes', remotesRouter(config, releases));

  deps.oidc?.mount(app, services);

  app.use('/api', (_req, res) => sendFormError(res, 'notFound', 404));
  app.use(
    shellRouter({
      shellDist: config.shellDist,
      logger,
      shellValues: deps.shellValues ?? partnerShellValues(partners),
    }),
  );
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('Not Found');
  });

  // Bad input is a 4xx with the errors map, never a 500 (issue 3); only real faults reach the 500 branch.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status =
      (error as { status?: unknown; statusCode?: unknown }).status ??
      (error as { statusCode?: unknown }).statusCode;
    if (res.headersSent) {
      req.log.error({ err: error }, 'error after the response started');
      res.end();
      return;
    }
    if (typeof status === 'number' && status >= 400 && status < 500) {
      sendFormError(
        res,
        status === 401 ? 'unauthorized' : status === 404 ? 'notFound' : 'invalidValue',
        status,
      );
      return;
    }
    req.log.error({ err: error }, 'request failed');
    res.status(500).json({ title: 'Internal Server Error' });
  });
  return app;
}
