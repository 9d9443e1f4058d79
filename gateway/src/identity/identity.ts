import type { Logger } from 'pino';
import type { ErrorRecords } from './ops/error-records.service.js';
import { GOOGLE_SITEVERIFY_URL } from '../infra/captcha/recaptcha-verifier.js';
import { systemClock, type Clock } from '../infra/clock.js';
import type { KeyValueStore } from '../infra/kv/key-value-store.js';
import type { Mailer } from '../infra/mail/mailer.js';
import type { SessionWriter } from './browser.js';
import type { SmsSender } from '../infra/sms/sms-sender.js';
import type { KnownBrowsers } from '../infra/throttle/known-browsers.js';
import type { LoginThrottle } from '../infra/throttle/login-throttle.js';
import type { Store } from '../store/store.js';
import { flushedOnce } from '../store/database.js';
import { createAccountsService } from './claims/accounts.service.js';
import { createApplications } from './applications/applications.service.js';
import { CaptchaService, type CaptchaServiceDeps } from './captcha/captcha.service.js';
import { createCustomerSelection } from './customers/customer-selection.service.js';
import { createConsoleGrantsService } from './console/console-grants.service.js';
import { createCustomersService } from './customers/customers.service.js';
import { createApplicationNameOf, createLoginViewService } from './sign-in/login-view.service.js';
import { createOneTimeSignInService } from './one-time-token/one-time-sign-in.service.js';
import type { RememberedBrowsers } from './two-factor/remembered-browsers.js';
import { createChangeAnnouncer, createWaysInAnnouncer } from './account/ways-in.js';
import { createTwoFactorService } from './two-factor/two-factor.service.js';
import { PartnerService } from './partners/partner.service.js';
import { createRecoveryService } from './recovery/recovery.service.js';
import { createReturnUrls } from './applications/return-urls.service.js';
import { createSessionAuthService } from './session/session-auth.service.js';
import { SignInService, type SignInMetrics } from './sign-in/sign-in.service.js';
import { storeSignInFacts } from './sign-in/sign-in-context.js';
import { createConsoleAuditService } from './console/audit-search.js';
import { createConsoleImportService } from './console/import.js';
import type { SignInStepRegistry } from './sign-in/step-registry.js';
import { createWebauthnService } from './passkeys/webauthn.service.js';
import { DEFAULT_INTERACTION_LIMIT, SourceLimit } from '../infra/throttle/source-limit.js';
import { createSignOutService, type OidcLogoutHooks } from './sign-out/sign-out.service.js';
import { createExternalIdentityService } from './external/external-identity.service.js';
import { Upstreams } from './external/upstreams.js';

/** What {@link createIdentity} builds the services from. */
export interface IdentityDeps {
  store: Store;
  /** Writes sessions back; replacing or ending one goes through the call's `Browser` port. */
  sessions: SessionWriter;
  throttle: LoginThrottle;
  steps: SignInStepRegistry;
  clock: Clock;
  metrics?: SignInMetrics;
  oidc?: OidcLogoutHooks | undefined;
  /** Browsers an account signed in from before: the throttle judges them apart from strangers (S7). */
  knownBrowsers?: KnownBrowsers;
  /** Short-lived flow state shared by the replicas (second-factor set-up, recovery-code sets, attempt counts). */
  kv: KeyValueStore;
  /** Recovery links and "password changed" notices (SMTP or the dev outbox). */
  mailer: Mailer;
  /** SMS codes of the second factor (the webhook provider or the dev outbox). */
  sms: SmsSender;
  /** "Remember this browser" after a second factor (ADR 0008). */
  rememberedBrowsers?: RememberedBrowsers;
  /** Browsers where a sign-in with the second factor completed: the 2FA counters judge them apart (issue 39). */
  secondFactorBrowsers?: KnownBrowsers;
  /** PUBLIC_URL: the origin of every mailed link (S13). */
  publicUrl: string;
  /** AUDIT_RETENTION_DAYS: the audit's retention until one is set in the console (ADR 0063). */
  auditRetentionDays?: number | undefined;
  /** RECENT_SIGN_IN_SECONDS: how recent a full sign-in must be to change how one signs in (S21). */
  recentSignInMs?: number | undefined;
  /** Ends an account's OIDC sessions and refresh tokens after a password change (S15). */
  revokeOidc?: ((accountId: string) => Promise<unknown>) | undefined;
  /** SECRET_KEY (the proof-of-work challenges are signed with keys derived from it) and the reCAPTCHA verify URL. */
  captcha: {
    secretKey: Buffer;
    recaptchaVerifyUrl?: string | undefined;
    fallback?: CaptchaServiceDeps['fallback'];
  };
  /** Faults of work done after an answer went out (the recovery mail). */
  onBackgroundError?: (error: unknown) => void;
  /** Discovery of the external identity providers (ADR 0018); one over the store when omitted. */
  upstreams?: Upstreams;
  /** An upstream's refusal: its warn line and the reference on the person's page (issue 53). */
  upstreamFailures?: { logger: Pick<Logger, 'warn'>; errorRecords: ErrorRecords } | undefined;
}

/** The identity layer's services, built once per app and handed to the routers and the OIDC mount. */
export function createIdentity(deps: IdentityDeps) {
  const { store, sessions, clock } = deps;
  const partners = new PartnerService(store.partners);
  // Every new way in is mailed to the account at once (issue 48, ADR 0042).
  const announcer = {
    mailer: deps.mailer,
    partners,
    clock,
    publicUrl: deps.publicUrl,
    onBackgroundError: deps.onBackgroundError,
  };
  const announceWayIn = createWaysInAnnouncer(announcer);
  // Every change to a passkey is mailed too, whichever page made it (issue 50: one path per action).
  const announceChange = createChangeAnnouncer(announcer);
  const twoFactor = createTwoFactorService({
    store,
    kv: deps.kv,
    clock,
    mailer: deps.mailer,
    sms: deps.sms,
    rememberedBrowsers: deps.rememberedBrowsers,
    recentSignInMs: deps.recentSignInMs,
    announceWayIn,
  });
  const signIn = new SignInService({
    store,
    sessions,
    throttle: deps.throttle,
    steps: deps.steps,
    clock,
    metrics: deps.metrics,
    knownBrowsers: deps.knownBrowsers,
    rememberedBrowsers: deps.rememberedBrowsers,
    secondFactorBrowsers: deps.secondFactorBrowsers,
    onRememberBrowser: (browser, user) => twoFactor.rememberBrowser(browser, user.id),
    announceWayIn,
  });
  const auth = createSessionAuthService(store, (session) => {
    const state = signIn.pendingState(session);
    return state.kind === 'at' ? state.step.path : undefined;
  });
  const customers = createCustomersService(store, clock);
  const returnUrls = createReturnUrls(store);
  const captcha = new CaptchaService({
    users: store.users,
    settings: store.captchaSettings,
    partners,
    kv: deps.kv,
    throttle: deps.throttle,
    clock,
    knownBrowsers: deps.knownBrowsers,
    secretKey: deps.captcha.secretKey,
    recaptchaVerifyUrl: deps.captcha.recaptchaVerifyUrl ?? GOOGLE_SITEVERIFY_URL,
    fallback: deps.captcha.fallback,
  });
  const upstreams = deps.upstreams ?? new Upstreams({ providers: store.identityProviders });
  const external = createExternalIdentityService({
    store,
    sessions,
    signIn,
    auth,
    partners,
    upstreams,
    clock,
    publicUrl: deps.publicUrl,
    announceWayIn,
    logger: deps.upstreamFailures?.logger,
    errorRecords: deps.upstreamFailures?.errorRecords,
  });
  return {
    signIn,
    auth,
    upstreams,
    external,
    accounts: createAccountsService(store),
    customers,
    // Stamped with the system clock, as oidc-provider stamps the authorization it is compared with.
    customerSelection: createCustomerSelection({ customers, signIn, sessions, selectionClock: systemClock }),
    partners,
    returnUrls,
    applications: createApplications(store),
    twoFactor,
    // The operators' console grants (ADR 0058); "has a second factor or a passkey" is the sign-in's own fact.
    consoleGrants: createConsoleGrantsService({ store, facts: storeSignInFacts(store), clock }),
    // The console's audit search and export (ADR 0063).
    // The console's bulk import of customers, the CLI's check and store (ADR 0063).
    consoleImport: createConsoleImportService({ store, clock }),
    consoleAudit: createConsoleAuditService({ store, clock, defaultRetentionDays: deps.auditRetentionDays }),
    secondFactorBrowsers: deps.secondFactorBrowsers,
    captcha,
    loginView: createLoginViewService(
      partners,
      returnUrls,
      captcha,
      external,
      deps.oidc?.describeInteraction?.bind(deps.oidc),
    ),
    recovery: createRecoveryService({
      store,
      kv: deps.kv,
      clock,
      mailer: deps.mailer,
      partners,
      publicUrl: deps.publicUrl,
      revokeOidc: deps.revokeOidc,
      ...(deps.onBackgroundError ? { onBackgroundError: deps.onBackgroundError } : {}),
    }),
    oneTimeSignIn: createOneTimeSignInService({
      store,
      kv: deps.kv,
      clock,
      mailer: deps.mailer,
      partners,
      returnUrls,
      signIn,
      throttle: deps.throttle,
      knownBrowsers: deps.knownBrowsers,
      publicUrl: deps.publicUrl,
      // SECRET_KEY (the captcha derives its keys from it too): the code's and the binding's keyed hashes.
      secretKey: deps.captcha.secretKey,
      onBackgroundError: deps.onBackgroundError,
    }),
    webauthn: createWebauthnService({
      store,
      kv: deps.kv,
      clock,
      publicUrl: deps.publicUrl,
      announceWayIn,
      announceChange,
    }),
    // Every AssertionOptions stores a challenge for an anonymous caller (the sign-in page's autofill asks on each
    // visit): a source gets as many as it may start OIDC interactions.
    assertionLimit: new SourceLimit(deps.throttle.backend, {
      ...DEFAULT_INTERACTION_LIMIT,
      keyPrefix: `${deps.throttle.prefix}:assertions`,
    }),
    signOut: createSignOutService({
      store,
      sessions,
      auth,
      oidc: deps.oidc,
      now: () => clock.now(),
      upstreamName: (id) => external.providerName(id),
    }),
    /** The application a sign-in page's returnUrl goes on to, as LoginView names it (the first HTML's line). */
    applicationNameOf: createApplicationNameOf(returnUrls, deps.oidc?.describeInteraction?.bind(deps.oidc)),
    /** The OIDC side's view of an application's pending sign-in (SilentLogin, ADR 0020). */
    describeInteraction: deps.oidc?.describeInteraction?.bind(deps.oidc),
    /** Several writes of one call flushed to disk once, at its end (group commit, ADR 0067). */
    flushedOnce: <T>(work: () => Promise<T>) => flushedOnce(store.database.db, work),
  };
}

/** The identity services. */
export type Identity = ReturnType<typeof createIdentity>;
