/**
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0) with the confirmation on the sign-in site, and
 * back-channel logout (OpenID Connect Back-Channel Logout 1.0). oidc-provider's own confirmation form is replaced by
 * a redirect to the sign-in site's logout page; that page asks {@link LogoutHooks.describeLogout} what to show, and
 * the gateway's Logout call ends the OIDC session with {@link LogoutHooks.endOidcSession}.
 */
import type { Request, Response } from 'express';
import type Provider from 'oidc-provider';
import type { Configuration, KoaContextWithOIDC, Session } from 'oidc-provider';
import type { SiteSessionReader } from './site-session.js';
import type { FindOidcClient } from './types.js';
import { providerCookieOptions } from '../infra/cookie-attributes.js';
import { safeEqual } from '../infra/crypto/tokens.js';

/** What LogoutView needs to know about a pending RP-initiated logout. */
export interface LogoutDescription {
  logoutId: string;
  clientId: string | undefined;
  clientName: string | undefined;
  /**
   * False only when the relying party proved who it logs out with a valid id_token_hint whose subject is the user
   * signed in on the site (and whose sid, when it has one, is this browser's session with the client); otherwise the
   * user must confirm (S32: logout needs id_token_hint or the user's confirmation).
   */
  showLogoutPrompt: boolean;
  /** Where the user goes after signing out (already exact-matched against the client's registration). */
  postLogoutRedirectUri: string | undefined;
}

/** The outcome of ending the OIDC session. */
export interface EndedOidcSession {
  /** True when there was an OIDC session (with an account) and it is now gone. */
  ended: boolean;
  /** Clients that were sent a back-channel logout token (delivered or not; failures are logged). */
  backchannelClients: string[];
  /** The registered post_logout_redirect_uri (+ state) when logoutId matched a pending logout; else undefined. */
  postLogoutRedirectUri: string | undefined;
  clientId: string | undefined;
  clientName: string | undefined;
}

/** The two calls the sign-in site's logout page and Logout call make. */
export interface LogoutHooks {
  /** Details of the RP-initiated logout `logoutId` for the browser `req`; undefined when it is not pending. */
  describeLogout(logoutId: string, req: Request, res: Response): Promise<LogoutDescription | undefined>;
  /**
   * Ends the browser's OIDC session: back-channel logout to every client of the session that registered a URI,
   * grants revoked (except offline ones), OIDC session destroyed and its cookie cleared on `res`. Call it from the
   * gateway's Logout with the logoutId of the page (or undefined for a sign-out started on our own site).
   */
  endOidcSession(logoutId: string | undefined, req: Request, res: Response): Promise<EndedOidcSession>;
}

/** Where the provider hands the browser over to the sign-in site. */
export interface LogoutPages {
  /** Sign-out confirmation page; receives `logoutId`. */
  logoutPath: string;
  /** Page after a sign-out that oidc-provider itself completed. */
  loggedOutPath: string;
}

/** oidc-provider's end-session state in the OIDC session, plus what our logoutSource adds. */
interface LogoutState {
  secret?: string;
  clientId?: string;
  state?: string;
  postLogoutRedirectUri?: string;
  /** Recorded by us: who the request's valid id_token_hint names (the proof is judged when the page asks). */
  hint?: { sub: string; sid?: string; clientId: string };
}

/** The valid id_token_hint of an end-session request, as {@link LogoutState.hint}. */
function hintOf(ctx: KoaContextWithOIDC): LogoutState['hint'] {
  const hint = ctx.oidc.entities.IdTokenHint as { payload?: Record<string, unknown> } | undefined;
  const payload = hint?.payload;
  if (!payload || typeof payload.sub !== 'string' || typeof payload.aud !== 'string') return undefined;
  return {
    sub: payload.sub,
    clientId: payload.aud,
    ...(typeof payload.sid === 'string' ? { sid: payload.sid } : {}),
  };
}

type RpInitiatedLogoutFeature = NonNullable<NonNullable<Configuration['features']>['rpInitiatedLogout']>;

/** The `features.rpInitiatedLogout` configuration: the confirmation is the sign-in site's page. */
export function rpInitiatedLogoutFeature(pages: LogoutPages): RpInitiatedLogoutFeature {
  return {
    enabled: true,
    // The xsrf secret of oidc-provider's confirmation form becomes our logoutId: only this browser's OIDC session
    // holds it, so a logout page cannot be driven for someone else's session.
    logoutSource(ctx: KoaContextWithOIDC) {
      const state = ctx.oidc.session?.state as LogoutState | undefined;
      if (state) state.hint = hintOf(ctx);
      ctx.status = 303;
      ctx.redirect(`${pages.logoutPath}?logoutId=${encodeURIComponent(state?.secret ?? '')}`);
    },
    postLogoutSuccessSource(ctx: KoaContextWithOIDC) {
      ctx.status = 303;
      ctx.redirect(pages.loggedOutPath);
    },
  };
}

/**
 * oidc-provider ends a browser without an OIDC session by itself (an auto-submitted form to its confirm endpoint,
 * then back to the client), which would leave a signed-in site session behind. Every end-session ends the site
 * session too (S27), so when the site is signed in we hand that browser over to the sign-in site's page as well.
 */
export function handOverEndSessionWithoutOidcSession(
  pages: LogoutPages,
  site: SiteSessionReader,
): (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void> {
  return async (ctx, next) => {
    await next();
    if (ctx.oidc?.route !== 'end_session' || ctx.status !== 200) return;
    const session = ctx.oidc.session;
    const state = session?.state as LogoutState | undefined;
    if (!session || session.accountId || !state?.secret) return;
    if (!(await site.read(ctx.req))) return;
    state.hint = hintOf(ctx);
    await session.persist();
    ctx.status = 303;
    ctx.redirect(`${pages.logoutPath}?logoutId=${encodeURIComponent(state.secret)}`);
  };
}

/**
 * Whether the recorded id_token_hint proves the sign-out (S32): it names the account signed in on the site, and its
 * sid, when present, is this browser's OIDC session with that client (not another session of the same user).
 */
function hintProves(
  hint: LogoutState['hint'],
  site: { accountId: string } | undefined,
  session: Session,
): boolean {
  if (!hint || !site || hint.sub !== site.accountId) return false;
  if (hint.sid === undefined) return true;
  const sid = session.accountId === hint.sub ? session.sidFor(hint.clientId) : undefined;
  return typeof sid === 'string' && safeEqual(sid, hint.sid);
}

function pendingLogout(session: Session, logoutId: string | undefined): LogoutState | undefined {
  const state = session.state as LogoutState | undefined;
  if (!logoutId || !state?.secret || !safeEqual(state.secret, logoutId)) return undefined;
  return state;
}

async function revokeGrant(provider: Provider, grantId: string): Promise<void> {
  await Promise.all([
    provider.AccessToken.adapter.revokeByGrantId(grantId),
    provider.AuthorizationCode.adapter.revokeByGrantId(grantId),
    provider.RefreshToken.adapter.revokeByGrantId(grantId),
    provider.Grant.adapter.destroy(grantId),
  ]);
}

/** How {@link endOidcSessionArtefacts} treats the session's offline grants. */
export interface EndOidcSessionOptions {
  /**
   * Also revoke the grants the client holds with `offline_access` (its refresh tokens outlive a sign-out). The
   * browser's own sign-out keeps them, as oidc-provider does; a session ended by someone else (the account's owner
   * from the security centre, an administrator) loses them too (ADR 0006).
   */
  revokeOffline?: boolean | undefined;
  /** The request that ends it, for the provider's `backchannel.*` events (none when ended from elsewhere). */
  ctx?: KoaContextWithOIDC | undefined;
}

/**
 * Ends one stored OIDC session, wherever it lives: back-channel logout to every client of the session that
 * registered a URI (with the session's `sid` for that client), its grants revoked (offline ones only with
 * `revokeOffline`), the session destroyed. The same steps as oidc-provider's end_session confirm
 * (lib/actions/end_session.js), run from our own code (Back-Channel Logout 1.0 §2.7). Answers the clients told.
 */
export async function endOidcSessionArtefacts(
  provider: Provider,
  session: Session,
  options: EndOidcSessionOptions = {},
): Promise<string[]> {
  const { ctx } = options;
  const backchannelClients: string[] = [];
  const accountId = session.accountId;
  if (accountId) {
    const authorizations = session.authorizations ?? {};
    await Promise.all(
      Object.keys(authorizations).map(async (clientId) => {
        const client = await provider.Client.find(clientId).catch(() => undefined);
        if (client?.backchannelLogoutUri) {
          backchannelClients.push(clientId);
          const sid = session.sidFor(clientId) ?? '';
          // Client#backchannelLogout exists in oidc-provider 9 but is missing from its type definitions.
          const sender = client as unknown as {
            backchannelLogout: (sub: string, sid: string) => Promise<void>;
          };
          await sender.backchannelLogout(accountId, sid).then(
            () => provider.emit('backchannel.success', ctx, client, accountId, sid),
            (error: unknown) => provider.emit('backchannel.error', ctx, error, client, accountId, sid),
          );
        }
        const { grantId, persistsLogout } = session.authorizationFor(clientId);
        if (grantId && (!persistsLogout || options.revokeOffline)) await revokeGrant(provider, grantId);
      }),
    );
  }
  await session.destroy();
  return backchannelClients;
}

/**
 * Ends the browser's own OIDC session: {@link endOidcSessionArtefacts} (offline grants kept), and its cookie
 * cleared (OpenID Connect RP-Initiated Logout 1.0 §2). Answers the clients told.
 */
export async function terminateOidcSession(
  provider: Provider,
  session: Session,
  ctx: KoaContextWithOIDC,
): Promise<string[]> {
  const backchannelClients = await endOidcSessionArtefacts(provider, session, { ctx });
  ctx.cookies.set(provider.cookieName('session'), null, providerCookieOptions('/', ctx.secure));
  return backchannelClients;
}

/**
 * The logout hooks over the live provider. `currentProvider` is read on every call because the life cycle swaps in
 * a new provider when the signing keys change; `site` says who is signed in on the site (the hint's proof).
 */
export function createLogoutHooks(
  currentProvider: () => Provider,
  findClient: FindOidcClient,
  site: SiteSessionReader,
): LogoutHooks {
  const sessionOf = async (
    provider: Provider,
    req: Request,
    res: Response,
  ): Promise<{ session: Session; ctx: KoaContextWithOIDC }> => {
    const ctx = provider.createContext(req, res) as unknown as KoaContextWithOIDC;
    const session = await provider.Session.get(ctx);
    return { session, ctx };
  };

  const clientName = async (clientId: string | undefined): Promise<string | undefined> => {
    if (!clientId) return undefined;
    return (await findClient(clientId))?.name ?? clientId;
  };

  return {
    async describeLogout(logoutId, req, res) {
      const { session } = await sessionOf(currentProvider(), req, res);
      const state = pendingLogout(session, logoutId);
      if (!state) return undefined;
      return {
        logoutId,
        clientId: state.clientId,
        clientName: await clientName(state.clientId),
        showLogoutPrompt: !hintProves(state.hint, await site.read(req), session),
        postLogoutRedirectUri: state.postLogoutRedirectUri,
      };
    },

    async endOidcSession(logoutId, req, res) {
      const provider = currentProvider();
      const { session, ctx } = await sessionOf(provider, req, res);
      const state = pendingLogout(session, logoutId);
      const result: EndedOidcSession = {
        ended: false,
        backchannelClients: [],
        postLogoutRedirectUri: undefined,
        clientId: state?.clientId,
        clientName: await clientName(state?.clientId),
      };
      if (state?.postLogoutRedirectUri) {
        const target = new URL(state.postLogoutRedirectUri);
        if (state.state !== undefined) target.searchParams.set('state', state.state);
        result.postLogoutRedirectUri = target.href;
      }
      if (!session.accountId) return result;
      result.backchannelClients = await terminateOidcSession(provider, session, ctx);
      result.ended = true;
      return result;
    },
  };
}
