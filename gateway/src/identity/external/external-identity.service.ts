import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import type { Logger } from 'pino';
import {
  UPSTREAM_POST_LOGOUT_PATH,
  upstreamCallbackPath,
  type ExternalProvider,
  type ExternalUser,
  type LinkedProvider,
  type VendorLoginView,
  withReturnUrl,
} from 'shared-contracts';
import type { Clock } from '../../infra/clock.js';
import type { Session } from '../../infra/sessions/session-manager.js';
import type { ExternalIdentity, UpstreamFlow } from '../../infra/sessions/session-store.js';
import type { ExternalLogin } from '../../store/external-login.repository.js';
import type { IdentityProvider } from '../../store/identity-provider.repository.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/user.repository.js';
import type { AnnounceWayIn } from '../account/ways-in.js';
import type { ErrorRecords } from '../ops/error-records.service.js';
import type { PartnerService } from '../partners/partner.service.js';
import type { Browser, SessionWriter } from '../browser.js';
import type { SessionAuthService } from '../session/session-auth.service.js';
import type { SignInOutcome, SignInService } from '../sign-in/sign-in.service.js';
import type { Upstreams } from './upstreams.js';

/** An authorization request to an upstream, and an upstream identity awaiting its link, live this long. */
export const UPSTREAM_FLOW_MS = 10 * 60_000;

/** `amr` values (RFC 8176) that name a second factor: a trusted upstream's report of one stands for ours. */
const SECOND_FACTOR_AMR = new Set([
  'mfa',
  'otp',
  'hwk',
  'swk',
  'sms',
  'tel',
  'sc',
  'fpt',
  'face',
  'iris',
  'pin',
]);

/** What the gateway does after the upstream's callback. */
export type CallbackResult =
  | { kind: 'redirect'; target: string; session: Session }
  /**
   * Refused (tampered, expired, upstream error): nothing signed in; `page` is the sign-in error page naming the
   * provider, with the error's reference, when the failure is the upstream's.
   */
  | { kind: 'failed'; reason: string; page?: string };

/** Dependencies of {@link createExternalIdentityService}. */
export interface ExternalIdentityDeps {
  store: Store;
  sessions: SessionWriter;
  signIn: SignInService;
  auth: SessionAuthService;
  partners: PartnerService;
  upstreams: Upstreams;
  clock: Clock;
  /** PUBLIC_URL: the origin of the callback and post-logout addresses registered with the upstreams. */
  publicUrl: string;
  /** Mails the account each upstream linked to it (issue 48, ADR 0042). */
  announceWayIn?: AnnounceWayIn | undefined;
  /** The warn line of an upstream's refusal (issue 53). */
  logger?: Pick<Logger, 'warn'> | undefined;
  /** The reference the person's page shows and the warn line carries. */
  errorRecords?: Pick<ErrorRecords, 'record' | 'pageOf'> | undefined;
}

/** What an upstream said when it refused: its OAuth error, description and HTTP status (issue 53). */
export interface UpstreamRefusal {
  error: string;
  errorDescription?: string;
  status?: number;
}

/**
 * The provider's own words from openid-client's error: a token endpoint's error body (`ResponseBodyError`), an
 * error in the redirect back (`AuthorizationResponseError`), or an answer that was not OAuth (`WWWAuthenticate…`,
 * unexpected status); otherwise the error's name and message.
 */
export function upstreamRefusalOf(error: unknown): UpstreamRefusal {
  const text = (value: unknown, max: number) =>
    typeof value === 'string' && value ? value.slice(0, max) : undefined;
  if (error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError) {
    const description = text(error.error_description, 500);
    return {
      error: text(error.error, 100) ?? 'unknown',
      ...(description ? { errorDescription: description } : {}),
      ...(error instanceof oidc.ResponseBodyError ? { status: error.status } : {}),
    };
  }
  if (error instanceof oidc.WWWAuthenticateChallengeError) {
    const challenge = error.cause[0]?.parameters;
    const description = text(challenge?.error_description, 500);
    return {
      error: text(challenge?.error, 100) ?? 'invalid_client',
      ...(description ? { errorDescription: description } : {}),
      status: error.status,
    };
  }
  const status =
    error instanceof Error && error.cause instanceof Response ? { status: error.cause.status } : {};
  return {
    error: error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 300) : 'unknown',
    ...status,
  };
}

function stringClaim(value: unknown, max = 256): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim().slice(0, max) : undefined;
}

/**
 * External identity providers (ADR 0018): the sign-in page's login providers, vendor sign-in, the upstream's
 * callback (state, nonce and PKCE checked and the ID token validated by openid-client: S35), linking an upstream
 * identity to a local account by (issuer, subject) — never by e-mail — and the upstream sign-out (S27).
 */
export function createExternalIdentityService(deps: ExternalIdentityDeps) {
  const { store, sessions, signIn, clock } = deps;
  const origin = deps.publicUrl.replace(/\/$/, '');
  const now = () => clock.now();

  /** Login providers of the host's partner: not vendors; a provider without a partner is every partner's. */
  async function loginProvidersFor(host: string): Promise<IdentityProvider[]> {
    const partner = await deps.partners.forHost(host);
    const all = await store.identityProviders.list();
    return all.filter(
      (p) => !p.vendor && !p.disabled && (p.partnerId === undefined || p.partnerId === partner?.id),
    );
  }

  async function fail(reason: string, data: Record<string, unknown> = {}): Promise<CallbackResult> {
    await store.audit.record({
      at: now(),
      kind: 'sign-in.external.failed',
      userId: null,
      ip: null,
      data: { reason, ...data },
    });
    return { kind: 'failed', reason };
  }

  /**
   * The upstream refused (its token endpoint's error, an error in its redirect, a token that does not validate):
   * one warn line and the audit event carry its `error`, `error_description` and HTTP status with the reference the
   * person's page shows — "Signing in with <provider> failed", to try again or sign in another way.
   */
  async function refused(
    provider: IdentityProvider,
    returnUrl: string,
    refusal: UpstreamRefusal,
    ip: string,
  ): Promise<CallbackResult> {
    const record = await deps.errorRecords?.record({
      kind: 'signIn',
      messageKey: 'upstreamFailed',
      clientName: provider.name,
      source: ip,
    });
    const details = {
      provider: provider.id,
      issuer: provider.issuer,
      error: refusal.error,
      ...(refusal.errorDescription !== undefined ? { errorDescription: refusal.errorDescription } : {}),
      ...(refusal.status !== undefined ? { status: refusal.status } : {}),
      ...(record ? { errorId: record.errorId } : {}),
    };
    deps.logger?.warn(details, 'upstream sign-in refused by the provider');
    await fail('rejected', details);
    if (!record || !deps.errorRecords) return { kind: 'failed', reason: 'rejected' };
    const page = new URL(deps.errorRecords.pageOf(record), origin);
    page.searchParams.set('provider', provider.id);
    page.searchParams.set('returnUrl', returnUrl);
    return { kind: 'failed', reason: 'rejected', page: `${page.pathname}${page.search}` };
  }

  /** A vendor's account for an upstream identity seen for the first time (ADR 0018: created, then linked). */
  async function createVendorAccount(
    provider: IdentityProvider,
    issuer: string,
    subject: string,
    claims: oidc.IDToken,
  ): Promise<User> {
    const key = createHash('sha256').update(`${issuer}\n${subject}`).digest('hex').slice(0, 16);
    const name =
      stringClaim(claims.name) ?? stringClaim(claims.email) ?? `${provider.name} ${subject.slice(0, 32)}`;
    // No e-mail and no password: the account signs in only through its upstream, and its upstream e-mail can
    // never make it match (or shadow) a local account's login (S35).
    const user = await store.users.create({
      username: `${provider.id}.${key}`,
      displayName: name,
      passwordHash: null,
      roles: provider.roles,
      partnerId: provider.partnerId ?? null,
      vendorId: provider.id,
    });
    await store.externalLogins.link({
      issuer,
      subject,
      userId: user.id,
      providerId: provider.id,
      securityStamp: user.securityStamp,
    });
    await store.audit.record({
      at: now(),
      kind: 'external.vendor-account-created',
      userId: user.id,
      ip: null,
      data: { provider: provider.id, issuer, roles: provider.roles },
    });
    return user;
  }

  /**
   * Whether a stored link still stands (issue 39): a vendor account's always (it has no local credentials to
   * change); a login provider's only while the account's security stamp is the one the link was made under — a new
   * password, a reset, `sessions revoke` or disabling ended it, and a link older than migration 0021 has none.
   */
  function linkStands(provider: IdentityProvider | undefined, link: ExternalLogin, user: User): boolean {
    return provider?.vendor === true || link.securityStamp === user.securityStamp;
  }

  return {
    /** LoginView's external providers: the partner's non-vendor upstreams (shown when showLoginProviders is on). */
    async loginProviders(host: string): Promise<ExternalProvider[]> {
      return (await loginProvidersFor(host)).map((p) => ({
        vendorId: p.id,
        displayName: p.name,
        ...(p.buttonLabel ? { buttonLabel: p.buttonLabel } : {}),
      }));
    },

    /**
     * `VendorLoginView`: the provider's name for its continue page — a vendor's, or a login provider this site
     * offers (the sign-in page's buttons lead there); undefined otherwise.
     */
    async vendorView(vendorId: string, host: string): Promise<VendorLoginView | undefined> {
      const provider = await store.identityProviders.findById(vendorId);
      if (!provider || provider.disabled) return undefined;
      if (!provider.vendor && !(await loginProvidersFor(host)).some((p) => p.id === provider.id))
        return undefined;
      return { vendorId: provider.id, name: provider.name };
    },

    /**
     * Starts an authorization request at the upstream (code flow, PKCE S256, state and nonce kept in the server
     * session: S35); answers the authorization URL. `unknown`: not a provider this page may use; `unavailable`: its
     * discovery fails right now.
     */
    async start(
      browser: Browser,
      input: {
        providerId: string;
        host: string;
        returnUrl: string;
        purpose: 'sign-in' | 'link';
        userId?: string;
      },
    ): Promise<
      { kind: 'started'; url: string; session: Session } | { kind: 'unknown' } | { kind: 'unavailable' }
    > {
      const provider = await store.identityProviders.findById(input.providerId);
      if (!provider || provider.disabled) return { kind: 'unknown' };
      // A login provider only on its partner's site; linking is for login providers only.
      if (!provider.vendor || input.purpose === 'link') {
        const offered = await loginProvidersFor(input.host);
        if (!offered.some((p) => p.id === provider.id)) return { kind: 'unknown' };
      }
      const discovered = await deps.upstreams.get(provider.id);
      if (!discovered) return { kind: 'unavailable' };
      const session = await browser.ensure();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const flow: UpstreamFlow = {
        providerId: provider.id,
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier,
        returnUrl: input.returnUrl,
        purpose: input.purpose,
        ...(input.userId ? { userId: input.userId } : {}),
        startedAt: now(),
      };
      session.record.data.upstreamFlow = flow;
      await sessions.save(session);
      const url = oidc.buildAuthorizationUrl(discovered.config, {
        redirect_uri: `${origin}${upstreamCallbackPath(provider.id)}`,
        scope: provider.scopes,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
      });
      return { kind: 'started', url: url.href, session };
    },

    /**
     * The upstream's redirect back (`/signin/<id>/callback`). The authorization request must be this browser's own
     * (its session holds it, used once); openid-client checks the state, exchanges the code with the PKCE verifier
     * and validates the ID token (signature, issuer, audience, expiry, nonce). The identity is then looked up by
     * (issuer, subject) only.
     */
    async callback(
      browser: Browser,
      providerId: string,
      originalUrl: string,
      /** The callback's source address (the socket's: audit only). */
      ip: string,
    ): Promise<CallbackResult> {
      const session = await browser.current();
      const flow = session?.record.data.upstreamFlow;
      if (!session || !flow) return fail('no-request', { provider: providerId });
      delete session.record.data.upstreamFlow;
      await sessions.save(session);
      const age = now() - flow.startedAt;
      if (flow.providerId !== providerId || age < 0 || age > UPSTREAM_FLOW_MS)
        return fail('stale-request', { provider: providerId });
      const discovered = await deps.upstreams.get(providerId);
      if (!discovered) return fail('unavailable', { provider: providerId });
      const { provider, config } = discovered;
      // The person declined at the upstream (its answer to this browser's own request): back to the sign-in page.
      const answer = new URL(originalUrl, origin).searchParams;
      if (answer.get('error') === 'access_denied' && answer.get('state') === flow.state) {
        await fail('declined', { provider: providerId });
        return {
          kind: 'redirect',
          target: withReturnUrl('/account/login', flow.returnUrl),
          session,
        };
      }

      let claims: oidc.IDToken;
      let idToken: string;
      try {
        const tokens = await oidc.authorizationCodeGrant(config, new URL(originalUrl, origin), {
          pkceCodeVerifier: flow.codeVerifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
        const found = tokens.claims();
        if (!found || !tokens.id_token) return fail('no-id-token', { provider: providerId });
        claims = found;
        idToken = tokens.id_token;
        // A provider that releases name and e-mail only from userinfo: asked once, for the same subject.
        if (
          !stringClaim(claims.name) &&
          !stringClaim(claims.email) &&
          config.serverMetadata().userinfo_endpoint
        ) {
          const info = await oidc
            .fetchUserInfo(config, tokens.access_token, claims.sub)
            .catch(() => undefined);
          if (info) claims = { ...claims, name: info.name, email: info.email };
        }
      } catch (error) {
        return refused(provider, flow.returnUrl, upstreamRefusalOf(error), ip);
      }
      const issuer = claims.iss;
      const subject = claims.sub;
      const upstreamAmr = Array.isArray(claims.amr) ? claims.amr.filter((a) => typeof a === 'string') : [];

      if (flow.purpose === 'link') {
        const signedIn = await deps.auth.signedInUser(browser);
        if (!signedIn || signedIn.user.id !== flow.userId)
          return fail('not-signed-in', { provider: providerId });
        let existing = await store.externalLogins.find(issuer, subject);
        if (existing && existing.userId !== signedIn.user.id) {
          // A lapsed link of another account no longer names it: it gives way (it is gone at that account's next
          // upstream sign-in anyway).
          const owner = await store.users.findById(existing.userId);
          if (owner && linkStands(provider, existing, owner))
            return fail('linked-elsewhere', { provider: providerId, issuer });
          await store.externalLogins.remove(issuer, subject, existing.userId);
          existing = undefined;
        }
        // EexLink comes from a recent full sign-in (S21): the link is made, or made live again, under today's stamp.
        if (existing)
          await store.externalLogins.renew(issuer, subject, signedIn.user.id, signedIn.user.securityStamp);
        else
          await store.externalLogins.link({
            issuer,
            subject,
            userId: signedIn.user.id,
            providerId,
            securityStamp: signedIn.user.securityStamp,
          });
        await store.audit.record({
          at: now(),
          kind: 'external.linked',
          userId: signedIn.user.id,
          ip,
          data: { provider: providerId, issuer, via: 'account' },
        });
        await deps.announceWayIn?.(signedIn.user, 'linked-account', { provider: provider?.name });
        // A new session id after linking (S24).
        const current = (await browser.current())!;
        const next = await browser.regenerate(current, current.record.data, current.record.persistent);
        return { kind: 'redirect', target: flow.returnUrl, session: next };
      }

      let linked = await store.externalLogins.find(issuer, subject);
      let user: User | undefined;
      if (linked) {
        const owner = await store.users.findById(linked.userId);
        if (!owner) return fail('unknown-account', { provider: providerId });
        if (!linkStands(provider, linked, owner)) {
          // Ended by a credential change (issue 39): the identity is asked for the local password and every
          // local step again, as an unknown one is.
          await store.externalLogins.remove(issuer, subject, owner.id);
          await store.audit.record({
            at: now(),
            kind: 'external.link.lapsed',
            userId: owner.id,
            ip,
            data: { provider: providerId, issuer },
          });
          linked = undefined;
        }
      }
      if (linked) {
        user = (await store.users.findById(linked.userId))!;
        await store.externalLogins.touch(issuer, subject);
        // A vendor account carries its vendor's roles as configured now.
        if (provider.vendor && JSON.stringify(user.roles) !== JSON.stringify(provider.roles))
          user = (await store.users.update(user.id, { roles: provider.roles })) ?? user;
      } else if (provider.vendor) {
        user = await createVendorAccount(provider, issuer, subject, claims);
      } else {
        // Unknown identity: the link page asks which local account it is (never matched by e-mail, S35).
        const identity: ExternalIdentity = {
          providerId,
          issuer,
          subject,
          ...(stringClaim(claims.name) ? { name: stringClaim(claims.name)! } : {}),
          ...(stringClaim(claims.email) ? { email: stringClaim(claims.email)! } : {}),
          amr: upstreamAmr,
          idToken,
          returnUrl: flow.returnUrl,
          at: now(),
        };
        session.record.data.externalIdentity = identity;
        // A sign-in left pending elsewhere is over: the link page's calls start a new one.
        delete session.record.data.pending;
        await sessions.save(session);
        return {
          kind: 'redirect',
          target: withReturnUrl('/account/link', flow.returnUrl),
          session,
        };
      }
      const outcome = await signIn.externalSignIn(browser, session, user, {
        returnUrl: flow.returnUrl,
        ip,
        providerId,
        issuer,
        upstreamAmr,
        secondFactorByUpstream:
          provider.trustUpstreamMfa && upstreamAmr.some((a) => SECOND_FACTOR_AMR.has(a)),
        idToken,
        // When the upstream authenticated the person: the local sign-in time is never fresher (ADR 0005).
        upstreamAuthTime: typeof claims.auth_time === 'number' ? claims.auth_time : undefined,
      });
      if (outcome.kind !== 'redirect') return fail('account-refused', { provider: providerId });
      return { kind: 'redirect', target: outcome.redirect, session: outcome.session };
    },

    /** The upstream identity awaiting a link on this session, while fresh. */
    pendingIdentity(session: Session | undefined): ExternalIdentity | undefined {
      const identity = session?.record.data.externalIdentity;
      if (!identity) return undefined;
      const age = now() - identity.at;
      return age >= 0 && age <= UPSTREAM_FLOW_MS ? identity : undefined;
    },

    /** `ExternalUser`: who the upstream said the visitor is. */
    async externalUser(session: Session | undefined): Promise<ExternalUser | undefined> {
      const identity = this.pendingIdentity(session);
      if (!identity) return undefined;
      const provider = await store.identityProviders.findById(identity.providerId);
      if (!provider) return undefined;
      return {
        provider: provider.name,
        ...(identity.name ? { name: identity.name } : {}),
        ...(identity.email ? { email: identity.email } : {}),
      };
    },

    /**
     * `Link`: the local password proves the account (the password sign-in itself: throttled S6, same answers S10);
     * the session id is replaced (S24) and the local steps follow; the identity is linked when the last of them has
     * passed (issue 39), and the id changes once more then.
     */
    async link(
      browser: Browser,
      session: Session,
      identity: ExternalIdentity,
      input: { username: string; password: string; ip: string },
    ): Promise<SignInOutcome> {
      return signIn.passwordSignIn(browser, session, {
        login: input.username,
        password: input.password,
        rememberMe: false,
        returnUrl: identity.returnUrl,
        ip: input.ip,
        // The identity waits in the pending sign-in and is linked only once every step — the second factor above
        // all — has passed (issue 39): a password alone links nothing.
        afterPassword: () =>
          Promise.resolve({
            amr: ['fed'],
            upstream: { providerId: identity.providerId, idToken: identity.idToken },
            link: { providerId: identity.providerId, issuer: identity.issuer, subject: identity.subject },
          }),
      });
    },

    /** `Next` with `back`: forgets the upstream identity; where the browser goes (the sign-in page). */
    async back(session: Session | undefined): Promise<string> {
      const identity = session?.record.data.externalIdentity;
      if (session && identity) {
        delete session.record.data.externalIdentity;
        await sessions.save(session);
      }
      const returnUrl = identity?.returnUrl ?? '/';
      return withReturnUrl('/account/login', returnUrl);
    },

    /** `ExternalLogins`: the login providers of this site and whether the user linked each. */
    async linkedProviders(userId: string, host: string): Promise<LinkedProvider[]> {
      const [offered, all, user] = await Promise.all([
        loginProvidersFor(host),
        store.externalLogins.listForUser(userId),
        store.users.findById(userId),
      ]);
      // Only links that still stand (a lapsed one is gone at its next use).
      const linked = user ? all.filter((l) => l.securityStamp === user.securityStamp) : [];
      return offered.map((p) => ({
        vendorId: p.id,
        displayName: p.name,
        linked: linked.some((l) => l.providerId === p.id),
      }));
    },

    /** `EexUnlink`: removes the user's identities of one provider; the number removed. */
    async unlink(userId: string, providerId: string, ip: string): Promise<number> {
      const removed = await store.externalLogins.unlink(userId, providerId);
      if (removed > 0)
        await store.audit.record({
          at: now(),
          kind: 'external.unlinked',
          userId,
          ip,
          data: { provider: providerId },
        });
      return removed;
    },

    /**
     * The provider's public key for `private_key_jwt` as a JWKS (ADR 0064: registered with the provider, made on
     * first ask); undefined for an unknown provider.
     */
    async jwks(providerId: string) {
      if (!(await store.identityProviders.findById(providerId))) return undefined;
      const pair = await store.identityProviders.signingKey(providerId);
      return pair ? { keys: [pair.publicJwk] } : undefined;
    },

    /** The provider's name, for the upstream sign-out question. */
    async providerName(providerId: string): Promise<string | undefined> {
      return (await store.identityProviders.findById(providerId))?.name;
    },

    /**
     * `UpstreamLogout` with `yes`: the upstream's end-session address with `client_id`, `id_token_hint`, the
     * post-logout redirect back to `/account/loggedout` (registered with the upstream, S27) and always a `state` —
     * the application's logoutId when an application started the sign-out, else a random one: providers that return
     * to `post_logout_redirect_uri` only with a `state` would leave the person on their own page (issue 53).
     * Undefined when the upstream has no end-session endpoint or is unreachable: signed out here only.
     */
    async endSessionUrl(upstream: {
      providerId: string;
      idToken: string;
      logoutId?: string;
      userId?: string;
    }) {
      const discovered = await deps.upstreams.get(upstream.providerId);
      if (!discovered?.config.serverMetadata().end_session_endpoint) return undefined;
      await store.audit.record({
        at: now(),
        kind: 'sign-out.upstream',
        userId: upstream.userId ?? null,
        ip: null,
        data: { provider: upstream.providerId, issuer: discovered.provider.issuer },
      });
      return oidc.buildEndSessionUrl(discovered.config, {
        client_id: discovered.provider.clientId,
        ...(upstream.idToken ? { id_token_hint: upstream.idToken } : {}),
        post_logout_redirect_uri: `${origin}${UPSTREAM_POST_LOGOUT_PATH}`,
        state: upstream.logoutId ?? oidc.randomState(),
      }).href;
    },
  };
}

/** The external identity service. */
export type ExternalIdentityService = ReturnType<typeof createExternalIdentityService>;
