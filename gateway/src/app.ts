import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { GatewayConfig } from './config.js';
import { Antiforgery } from './http/antiforgery.js';
import { browserOf, sessionReaderOf } from './http/browser.js';
import { accountApi } from './http/account-api.js';
import { lightCallLane } from './http/light-calls.js';
import { requestLocale } from './http/locale.js';
import { opsRouter, reportedVersion, type ClientErrorLimits } from './http/ops.router.js';
import { partnerShellValues } from './http/partner.router.js';
import { sendFormError } from './http/problem.js';
import { browserBucket, remotesRouter } from './http/remotes.router.js';
import { requestLogger } from './http/request-logger.js';
import { securityHeaders } from './http/security-headers.js';
import { compressBigAnswers } from './http/compression.js';
import { cookieNames } from './http/cookies.js';
import { FirstPaintPages, firstPaintPartner } from './http/first-paint.js';
import { shellRouter } from './http/shell.router.js';
import { upstreamCallbackRouter } from './http/upstream-callback.router.js';
import { createConfirmItsYouService } from './identity/account/confirm-its-you.service.js';
import {
  createSecurityCentreService,
  type EndOidcSessionsOf,
} from './identity/account/security-centre.service.js';
import { createPeopleService } from './identity/console/people.service.js';
import type { CaptchaServiceDeps } from './identity/captcha/captcha.service.js';
import { createIdentity } from './identity/identity.js';
import { UpstreamsConsoleService } from './identity/console/applications-upstreams.service.js';
import { ApplicationsConsoleService } from './identity/console/applications.service.js';
import { PartnersConsoleService } from './identity/console/partners.service.js';
import { Upstreams } from './identity/external/upstreams.js';
import { createErrorRecords, type ErrorRecords } from './identity/ops/error-records.service.js';
import { SystemStatusService, type SystemStatusDeps } from './identity/ops/system-status.service.js';
import type { SignedInAccountInfo } from './identity/session/session-auth.service.js';
import type { OidcLogoutHooks } from './identity/sign-out/sign-out.service.js';
import { defaultSignInSteps, type SignInStepRegistry } from './identity/sign-in/step-registry.js';
import { systemClock, type Clock } from './infra/clock.js';
import type { KeyValueStore } from './infra/kv/key-value-store.js';
import { SqlKeyValueStore } from './infra/kv/sql-key-value.store.js';
import { safeEqual, sha256 } from './infra/crypto/tokens.js';
import { createLogger } from './infra/logger.js';
import { OutboxMailer, type Mailer } from './infra/mail/mailer.js';
import { OutboxSmsSender, type SmsSender } from './infra/sms/sms-sender.js';
import { isDependencyUnavailable, type DependencyHealth } from './infra/dependency-health.js';
import { Metrics } from './infra/metrics.js';
import { requestContext } from './infra/request-context.js';
import { RequestSessions } from './infra/sessions/request-sessions.js';
import { SessionIndex } from './infra/sessions/session-index.js';
import { SessionManager } from './infra/sessions/session-manager.js';
import type { SessionStore } from './infra/sessions/session-store.js';
import { RememberedBrowsers } from './identity/two-factor/remembered-browsers.js';
import { KnownBrowsers } from './infra/throttle/known-browsers.js';
import type { LoginThrottle } from './infra/throttle/login-throttle.js';
import { HealthCounter } from './releases/health-counter.js';
import { followReleases, type ReleaseRegistry } from './releases/release-registry.js';
import { createReleaseService, type ReleaseService } from './releases/release-service.js';
import { AccountSessionRepository } from './store/account-session.repository.js';
import type { Store } from './store/store.js';

/** What the OIDC mount needs from the identity layer: who is signed in, and ending the site session. */
export interface IdentityServices {
  /** `{ accountId, authTime, amr }` of the request's signed-in account, or undefined. */
  getSignedInAccount(req: IncomingMessage): Promise<SignedInAccountInfo | undefined>;
  /** Ends the gateway session (old cookie dead: S27) and starts an anonymous one. */
  signOut(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Short-lived error records behind the `/error/...` pages' `errorId` (the provider's error rendering). */
  errorRecords?: ErrorRecords;
}

/**
 * The OIDC provider as the gateway sees it (implemented in `src/oidc/`): `mount` adds `/connect/*`,
 * `/.well-known/*` and `/interaction/*` before the shell fallback; the hooks serve `LogoutView`/`Logout`.
 */
export interface OidcMount extends OidcLogoutHooks {
  mount(app: Express, services: IdentityServices): void;
  /** True when the provider answers (readiness); optional. */
  ping?(): Promise<boolean>;
  /** Ends every OIDC session and grant (with its refresh tokens) of the account: after a password change (S15). */
  revokeAccount?(accountId: string): Promise<unknown>;
  /** Ends the account's OIDC sessions made from the selected site sessions (back-channel logout, grants). */
  endOidcSessionsOf?: EndOidcSessionsOf;
}

/** What {@link createApp} needs; tests inject each part. */
export interface AppDeps {
  config: GatewayConfig;
  store: Store;
  sessionStore: SessionStore;
  throttle: LoginThrottle;
  clock?: Clock;
  logger?: Logger;
  oidc?: OidcMount;
  releases?: ReleaseRegistry;
  /**
   * Health per remote version, buffered and flushed to the store (ADR 0059): server.ts starts it and flushes it on
   * shutdown; when omitted the app makes its own, flushing every HEALTH_FLUSH_MS.
   */
  healthCounts?: HealthCounter;
  /** The one release service of the CLI and the console; made over the store when omitted. */
  releaseService?: ReleaseService;
  signInSteps?: SignInStepRegistry;
  metrics?: Metrics;
  clientErrorLimits?: ClientErrorLimits;
  /** Short-lived flow state (runtime.ts: Redis or the store's `kv` table); the store's table when omitted. */
  kv?: KeyValueStore;
  /** Captcha settings of partners without their own (tests of the throttle alone: `{ when: 'never' }`). */
  captchaFallback?: CaptchaServiceDeps['fallback'];
  /** Outgoing mail (runtime.ts: SMTP or the dev outbox); the store's outbox when omitted. */
  mailer?: Mailer;
  /** Outgoing SMS (runtime.ts: the webhook or the dev outbox); probed by SystemStatus. */
  sms?: SmsSender;
  /** SystemStatus probe timeout and cache lifetime (tests shorten them). */
  systemStatus?: Pick<SystemStatusDeps, 'probeTimeoutMs' | 'cacheMs'>;
  /**
   * The light-call lane ahead of Express (http/light-calls.ts, ADR 0027); on unless false. Tests turn it off to
   * compare its answers with the full stack's.
   */
  lightCalls?: boolean;
  /** Whether the database and Redis answer (runtime.ts): /readyz, the `dependency_up` gauge, 503 on outages. */
  health?: Pick<DependencyHealth, 'allUp' | 'states' | 'suspect'>;
  /** True once SIGTERM started the drain (http/drain.ts): /readyz answers 503 so the balancer stops sending. */
  draining?: () => boolean;
}

/** Builds the gateway's Express app without listening (tests run it in-process). */
export function createApp(deps: AppDeps): Express {
  const { config, store } = deps;
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? createLogger(config.logLevel);
  const metrics = deps.metrics ?? new Metrics();
  const { health } = deps;
  if (health)
    metrics.gauge('dependency_up', 'Whether a dependency answered its last probe (1) or not (0).', () =>
      health.states().map(([dependency, up]) => ({ labels: { dependency }, value: up ? 1 : 0 })),
    );
  const pool = store.database.pool;
  if (pool)
    metrics.gauge(
      'db_pool_connections',
      'PostgreSQL pool connections by state (inUse, idle, waiting callers).',
      () => Object.entries(pool.stats()).map(([state, value]) => ({ labels: { state }, value })),
    );
  // The registry in the store, followed by this replica (ADR 0033): PostgreSQL notifies it of changes.
  const releases = deps.releases ?? followReleases(store.releases, config.databaseUrl, logger);
  const now = () => clock.now();
  const healthCounts =
    deps.healthCounts ??
    new HealthCounter({
      repository: store.releaseHealth,
      metrics,
      logger,
      now,
      flushMs: config.healthFlushMs,
    }).start();
  const releaseService = deps.releaseService ?? createReleaseService(store, config.shellDist, now);

  // Which account each signed-in session belongs to: the security centre's list (ADR 0036).
  const sessionIndex = new SessionIndex(new AccountSessionRepository(store.database.db), now);
  const manager = new SessionManager(
    sessionIndex.wrap(deps.sessionStore),
    { idleMs: config.sessionIdleMs, absoluteMs: config.sessionAbsoluteMs },
    now,
  );
  const sessions = new RequestSessions(manager, config);
  // "Remember this browser" (ADR 0008): its entries count while their records last, so the centre can forget one.
  const rememberedBrowsers = new RememberedBrowsers(config, store.rememberedBrowsers, now);
  const antiforgery = new Antiforgery(config, sessions, now);
  const kv = deps.kv ?? new SqlKeyValueStore(store.database.db, store.database.dialect, { now });
  const errorRecords = createErrorRecords({ kv, now });
  const systemStatus = new SystemStatusService({
    probes: {
      database: () => store.database.ping(),
      sessionStore: () => manager.ping(),
      mail: deps.mailer?.ping ? () => deps.mailer?.ping?.() ?? Promise.resolve(false) : undefined,
      sms: deps.sms?.ping ? () => deps.sms?.ping?.() ?? Promise.resolve(false) : undefined,
    },
    releases,
    now,
    ...deps.systemStatus,
  });
  const identity = createIdentity({
    store,
    sessions,
    throttle: deps.throttle,
    steps: deps.signInSteps ?? defaultSignInSteps(),
    clock,
    metrics: { signIn: (result) => metrics.inc('sign_ins_total', { result }) },
    oidc: deps.oidc,
    knownBrowsers: new KnownBrowsers(config),
    secondFactorBrowsers: new KnownBrowsers(config, 'second-factor'),
    rememberedBrowsers,
    kv,
    mailer: deps.mailer ?? new OutboxMailer(store.outbox),
    sms: deps.sms ?? new OutboxSmsSender(store.outbox),
    publicUrl: config.publicUrl,
    recentSignInMs: config.recentSignInMs,
    auditRetentionDays: config.auditRetentionDays,
    captcha: {
      secretKey: config.secretKey,
      recaptchaVerifyUrl: config.recaptchaVerifyUrl,
      fallback: deps.captchaFallback,
    },
    revokeOidc: deps.oidc?.revokeAccount?.bind(deps.oidc),
    onBackgroundError: (error) => logger.error({ err: error }, 'background work failed'),
    upstreams: new Upstreams({
      providers: store.identityProviders,
      logger: logger.child({ module: 'upstreams' }),
      now,
    }),
    upstreamFailures: { logger: logger.child({ module: 'upstreams' }), errorRecords },
  });

  const app = express();
  app.disable('x-powered-by');
  // What res.send writes (no-store API answers, pages with a per-request nonce) is never cached: an ETag would cost a
  // hash of each body and could never match, so the body ETag function gives none. A function, not `false`: the
  // setting also switches sendFile's validators, and files keep theirs.
  app.set('etag', () => undefined);
  app.set('trust proxy', config.trustProxy);

  // The access log (request id header, refusals at info, faults at error; answered calls at debug cost no line)
  // and the request counter, on one `close` listener.
  const accessLog = requestLogger(app, logger, {
    ignore: (req) => req.url === '/healthz' || req.url === '/readyz',
    onDone: (res, req, startedAt) => {
      if (!res.writableFinished) return;
      const status = `${Math.floor(res.statusCode / 100)}xx`;
      metrics.inc('http_requests_total', { status });
      metrics.observe(
        'http_request_duration_seconds',
        { call: callLabel(req), status },
        (Date.now() - startedAt) / 1000,
      );
    },
  });
  app.use(accessLog);
  // Each request's audit context (ADR 0015): source address, user agent and the request id the logs carry.
  store.audit.useContext(() => requestContext.getStore());
  app.use((req, _res, next) => {
    const ua = req.get('user-agent');
    requestContext.run(
      { ip: req.ip ?? null, userAgent: ua ?? null, requestId: req.id, host: req.hostname },
      next,
    );
  });
  // Tiny JSON answers go out as they are; pages, files and big answers compressed (http/compression.ts).
  app.use(compressBigAnswers());
  // Pages of partners that use reCAPTCHA allow Google's origins in their CSP; every other page stays 'self'. The
  // settings are in process nearly always: answered then without a promise (each one costs every request).
  app.use((req, res, next) => {
    const known = identity.captcha.peekUsesRecaptcha(req.hostname);
    if (known !== undefined) {
      res.locals.recaptchaCsp = known;
      next();
      return;
    }
    identity.captcha
      .usesRecaptcha(req.hostname)
      .then((uses) => {
        res.locals.recaptchaCsp = uses;
        next();
      })
      .catch((error: unknown) => {
        // The store is down: keep the strict CSP ('self' only) and go on, so /readyz can answer 503 and the
        // probes of SystemStatus still run, instead of every request failing here with a 500.
        req.log.warn({ err: error }, 'captcha settings unavailable; strict CSP');
        res.locals.recaptchaCsp = false;
        next();
      });
  });
  const headers = securityHeaders({ hsts: config.secure });
  app.use(headers);
  // Messages of the API in the visitor's language; the errors map itself keeps the codes.
  const apiLocale = requestLocale({
    peek: (host) => {
      const found = identity.partners.peekForHost(host);
      return found && { language: found.partner?.defaultLanguage };
    },
    load: async (host) => (await identity.partners.forHost(host))?.defaultLanguage,
  });
  // The calls every page load makes are answered ahead of Express itself, with the same access log, audit
  // context and headers as above; the lane hands every other request to the app's own entry (ADR 0027).
  if (deps.lightCalls !== false) {
    const lane = lightCallLane({
      sessions,
      antiforgery,
      identity,
      appRequest: app.request,
      logger: accessLog,
      securityHeaders: headers,
    });
    const entry = app as unknown as {
      handle: (req: IncomingMessage, res: ServerResponse, done?: unknown) => void;
    };
    const handle = entry.handle.bind(app);
    entry.handle = (req, res, done) => lane(req, res, () => handle(req, res, done));
  }

  app.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  // The same probes as SystemStatus: ready while the database and session store answer (a message transport
  // down degrades the service but a replica can still sign people in).
  app.get('/readyz', async (_req, res) => {
    const [status, oidc] = await Promise.all([
      systemStatus.current(),
      deps.oidc?.ping ? deps.oidc.ping().catch(() => false) : Promise.resolve(true),
    ]);
    const up = (name: string) => status.dependencies.find((d) => d.name === name)?.state === 'ok';
    const database = up('database');
    const sessionStore = up('sessionStore');
    // The background probes see an outage within a second, sooner than SystemStatus's cached answer.
    const dependencies = health?.allUp() ?? true;
    const draining = deps.draining?.() ?? false;
    const ready = database && sessionStore && oidc && dependencies && !draining;
    res
      .status(ready ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({
        status: draining ? 'draining' : ready ? 'ready' : 'unavailable',
        database,
        sessionStore,
        oidc,
        ...(health ? { dependencies: Object.fromEntries(health.states()) } : {}),
      });
  });
  // The counters tell an outsider how sign-ins go (failures, throttling): only the scraper's bearer token reads
  // them; without a token the endpoint does not exist unless METRICS_PUBLIC opens it on purpose.
  const metricsTokenHash = config.metricsToken === undefined ? undefined : sha256(config.metricsToken);
  app.get('/metrics', (req, res) => {
    res.set('Cache-Control', 'no-store');
    if (metricsTokenHash !== undefined) {
      const given = /^Bearer +(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
      // Hashes of equal length, so the comparison takes the same time whatever was sent.
      if (given === undefined || !safeEqual(sha256(given), metricsTokenHash)) {
        res.status(401).set('WWW-Authenticate', 'Bearer').type('text/plain').send('Unauthorized');
        return;
      }
    } else if (!config.metricsPublic) {
      res.status(404).type('text/plain').send('Not Found');
      return;
    }
    res.type('text/plain; version=0.0.4').send(metrics.render());
  });

  app.use('/api', apiLocale);
  // The partner whose site a call happened on, for the audit trail (the lookup is cached by the partner service:
  // while it is in process, taken without a promise, as the CSP's settings above).
  app.use('/api/Account', (req, _res, next) => {
    const withPartner = (partner: { id: string } | undefined) => {
      const context = requestContext.getStore();
      if (context && partner) context.partnerId = partner.id;
      next();
    };
    const known = identity.partners.peekForHost(req.hostname);
    if (known) {
      withPartner(known.partner);
      return;
    }
    identity.partners.forHost(req.hostname).then(
      withPartner,
      // Without the store the call fails on its own terms (SystemStatus still answers): no partner in the context.
      () => next(),
    );
  });
  app.use(
    '/api/ops',
    opsRouter(logger, metrics, deps.clientErrorLimits, {
      releases,
      bucketCookie: cookieNames(config).bucket,
      counts: healthCounts,
    }),
  );
  // The security centre's service and readers (issue 43, ADR 0036): its router is one of the account API's.
  const securityCentre = {
    rememberedBrowsers,
    // "Confirm it's you" (ADR 0045): the sign-in's own throttle and second-factor check, its device cookies read.
    confirmItsYou: createConfirmItsYouService({
      store,
      kv,
      clock,
      throttle: deps.throttle,
      twoFactor: identity.twoFactor,
      webauthn: identity.webauthn,
    }),
    knownBrowsers: new KnownBrowsers(config),
    secondFactorBrowsers: new KnownBrowsers(config, 'second-factor'),
    // The dialog's password is guarded by the partner's captcha as the sign-in page's is (ADR 0014).
    captcha: identity.captcha,
    securityCentre: createSecurityCentreService({
      store,
      kv,
      clock,
      mailer: deps.mailer ?? new OutboxMailer(store.outbox),
      partners: identity.partners,
      twoFactor: identity.twoFactor,
      webauthn: identity.webauthn,
      sessionIndex,
      publicUrl: config.publicUrl,
      revokeOidc: deps.oidc?.revokeAccount?.bind(deps.oidc),
      onBackgroundError: (error) => logger.error({ err: error }, 'background work failed'),
      endOidcSessions: deps.oidc?.endOidcSessionsOf?.bind(deps.oidc),
    }),
  };
  app.use(
    '/api/Account',
    accountApi({
      config,
      sessions,
      antiforgery,
      identity,
      status: { systemStatus, errorRecords },
      securityCentre,
      releases: releaseService,
      partnersConsole: new PartnersConsoleService(store),
      applicationsConsole: new ApplicationsConsoleService(store),
      upstreamsConsole: new UpstreamsConsoleService({
        ...store,
        probe: (settings) => identity.upstreams.probe(settings),
        publicUrl: config.publicUrl,
      }),
      // The console's People section (issue 52): the service `admin users|sessions|memberships` use too.
      people: createPeopleService({
        store,
        clock,
        mailer: deps.mailer ?? new OutboxMailer(store.outbox),
        sessionIndex,
        revokeOidc: deps.oidc?.revokeAccount?.bind(deps.oidc),
        throttle: deps.throttle,
        recovery: identity.recovery,
        onBackgroundError: (error) => logger.error({ err: error }, 'background work failed'),
      }),
      // The `ownerOf` policies: a passkey of the account; another live session of it (this one is not listed).
      owners: {
        passkey: async (user, id) => (await identity.webauthn.devicesOf(user.id)).some((d) => d.id === id),
        session: async (user, id, session) =>
          (await sessionIndex.sessionsOf(user.id, user.securityStamp)).some(
            (s) => s.handle === id && s.sessionKey !== sha256(session.id),
          ),
      },
    }),
  );
  app.use('/remotes', remotesRouter(config, releases));
  // External identity providers' redirect back (ADR 0018); their discovery runs in the background from now on.
  app.use(upstreamCallbackRouter({ external: identity.external, antiforgery, sessions }));
  identity.upstreams.start();

  deps.oidc?.mount(app, {
    getSignedInAccount: (req) => identity.auth.getSignedInAccount(sessionReaderOf(sessions, req)),
    signOut: (req, res) => identity.auth.signOut(browserOf(sessions, req, res)),
    errorRecords,
  });

  app.use('/api', (_req, res) => sendFormError(res, 'notFound', 404));
  app.use(
    shellRouter({
      shellDist: config.shellDist,
      logger,
      shellValues: partnerShellValues(identity.partners),
      firstPaint: {
        pages: new FirstPaintPages(releases, cookieNames(config).bucket),
        partner: firstPaintPartner(identity.partners),
        applicationName: identity.applicationNameOf,
      },
      anonymousSession: async (req, res) => {
        if (sessions.cookieId(req) === undefined) await sessions.ensure(req, res);
      },
      bucket: (req, res) => void browserBucket(req, res, config),
      // Health per version (ADR 0059): a page a remote renders, counted under the version this browser is given.
      pageLoad: (req, owner) => {
        const { remote, version } = reportedVersion(req, owner, {
          releases,
          bucketCookie: cookieNames(config).bucket,
        });
        healthCounts.pageLoad(remote, version);
      },
    }),
  );
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('Not Found');
  });

  // Bad input is a 4xx with the errors map, never a 500; only real faults reach the 500 branch.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status =
      (error as { status?: unknown; statusCode?: unknown }).status ??
      (error as { statusCode?: unknown }).statusCode;
    if (res.headersSent) {
      req.log.error({ err: error }, 'error after the response started');
      res.end();
      return;
    }
    // The database or Redis could not be reached: the client may try again once it is back (never a grant: the
    // call failed before it could decide anything). The outage itself is logged once by DependencyHealth.
    if (isDependencyUnavailable(error)) {
      health?.suspect();
      req.log.debug({ err: error }, 'dependency unavailable');
      sendFormError(res, 'serviceUnavailable', 503);
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

// The OIDC provider's fixed endpoints (provider-configuration.ts); anything else under /connect/ is one label.
const LIGHT_CALLS = new Set([
  '/api/Account/User',
  '/api/Account/GetPartnerMetaData',
  '/api/Account/LoginView',
]);
const OIDC_CALLS =
  /^\/connect\/(authorize|token|userinfo|jwks|endsession|revocation|introspection|checksession|deviceauthorization|par)(?:\/|$)/;

/**
 * The `call` label of the latency histogram: the route Express matched (its pattern, not the path, so labels stay
 * a bounded set whatever paths clients send), the OIDC endpoint, or a coarse group.
 */
function callLabel(req: IncomingMessage): string {
  const { route, baseUrl } = req as { route?: { path?: unknown }; baseUrl?: string };
  if (route && typeof route.path === 'string') return `${baseUrl ?? ''}${route.path}`;
  // Express rewrites req.url inside mounted routers; originalUrl is what the client asked for.
  const path = ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '').split('?')[0] ?? '';
  const oidc = OIDC_CALLS.exec(path);
  if (oidc) return `/connect/${oidc[1]}`;
  // The light-call lane (ADR 0027) answers these before Express routes them.
  if (LIGHT_CALLS.has(path)) return path;
  if (path.startsWith('/api/')) return '/api/other';
  if (path.startsWith('/remotes/')) return '/remotes';
  if (path.startsWith('/connect/') || path.startsWith('/.well-known/') || path.startsWith('/interaction/'))
    return '/oidc/other';
  return 'other';
}
