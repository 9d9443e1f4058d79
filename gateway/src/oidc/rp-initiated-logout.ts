/**
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0) with the confirmation on the sign-in site, and
 * back-channel logout (OpenID Connect Back-Channel Logout 1.0). oidc-provider's own confirmation form is replaced by
 * a redirect to the sign-in site's logout page; that page asks {@link LogoutHooks.describeLogout} what to show, and
 * the gateway's Logout call ends the OIDC session with {@link LogoutHooks.endOidcSession}.
 */
import type { Request, Response } from 'express';
import type Provider from 'oidc-provider';
import type { Configuration, KoaContextWithOIDC, Session } from 'oidc-provider';
import type { FindOidcClient } from './types.js';
import { safeEqual } from '../infra/crypto/tokens.js';

/** What LogoutView needs to know about a pending RP-initiated logout. */
export interface LogoutDescription {
  logoutId: string;
  clientId: string | undefined;
  clientName: string | undefined;
  /**
   * False only when the relying party proved who it logs out with a valid id_token_hint; otherwise the user must
   * confirm (S32: logout needs id_token_hint or the user's confirmation).
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
  /** Set by our logoutSource: the request carried a valid id_token_hint. */
  hinted?: boolean;
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
      if (state) state.hinted = Boolean(ctx.oidc.entities.IdTokenHint);
      ctx.status = 303;
      ctx.redirect(`${pages.logoutPath}?logoutId=${encodeURIComponent(state?.secret ?? '')}`);
    },
    postLogoutSuccessSource(ctx: KoaContextWithOIDC) {
      ctx.status = 303;
      ctx.redirect(pages.loggedOutPath);
    },
  };
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

/**
 * The logout hooks over the live provider. `currentProvider` is read on every call because the life cycle swaps in
 * a new provider when the signing keys change.
 */
export function createLogoutHooks(currentProvider: () => Provider, findClient: FindOidcClient): LogoutHooks {
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
        showLogoutPrompt: !state.hinted,
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

      // Same steps as oidc-provider's end_session confirm (lib/actions/end_session.js), run from our Logout call
      // so the confirmation stays on the sign-in site (OpenID Connect RP-Initiated Logout 1.0 §2,
      // Back-Channel Logout 1.0 §2.7).
      const accountId = session.accountId;
      const authorizations = session.authorizations ?? {};
      await Promise.all(
        Object.keys(authorizations).map(async (clientId) => {
          const client = await provider.Client.find(clientId).catch(() => undefined);
          if (client?.backchannelLogoutUri) {
            result.backchannelClients.push(clientId);
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
          if (grantId && !persistsLogout) await revokeGrant(provider, grantId);
        }),
      );
      await session.destroy();
      ctx.cookies.set(provider.cookieName('session'), null, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        signed: true,
        secure: ctx.secure,
      });
      result.ended = true;
      return result;
    },
  };
}
