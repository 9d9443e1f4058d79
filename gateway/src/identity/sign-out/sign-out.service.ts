import type { LogoutView } from 'shared-contracts';
import { randomToken, safeEqual } from '../../infra/crypto/tokens.js';
import type { Session } from '../../infra/sessions/session-manager.js';
import type { Store } from '../../store/store.js';
import type { Browser, SessionWriter } from '../browser.js';
import type { SessionAuthService } from '../session/session-auth.service.js';

/** What the OIDC side offers the sign-out calls (see gateway/src/oidc/README.md "OIDC mount interface"). */
export interface OidcLogoutHooks {
  /** For `LogoutView`: whether the user must confirm (no id_token_hint: S32) and which client asked. */
  describeLogout?(
    logoutId: string | undefined,
    browser: Browser,
  ): Promise<{ showLogoutPrompt: boolean; clientName?: string | undefined } | undefined>;
  /**
   * For `Logout`: ends the OIDC session, sends back-channel logout; for an RP-initiated sign-out (`logoutId`
   * matched) answers the client's name and its validated post_logout_redirect_uri (+ state).
   */
  endSession?(logoutId: string | undefined, browser: Browser): Promise<EndedSignOut | undefined>;
  /**
   * For `SilentLogin` (ADR 0020): whether the application's sign-in `/interaction/<uid>` is alive and whether it
   * demands a fresh sign-in (`prompt=login`, `max_age`); undefined when unknown or expired. For LoginView also the
   * registered name of the application that started it.
   */
  describeInteraction?(uid: string): Promise<{ freshSignIn: boolean; clientName?: string } | undefined>;
}

/** What the OIDC side reports after ending its session. */
export interface EndedSignOut {
  clientName?: string | undefined;
  postLogoutRedirectUri?: string | undefined;
}

/** How long the logged-out page may ask for its "Return to <client>" link. */
export const LOGGED_OUT_RECORD_MS = 10 * 60_000;

/** Dependencies of {@link createSignOutService}. */
export interface SignOutDeps {
  store: Pick<Store, 'audit'>;
  sessions: SessionWriter;
  auth: SessionAuthService;
  oidc?: OidcLogoutHooks | undefined;
  now: () => number;
  /** The name of a configured upstream provider (ADR 0018); without it no upstream sign-out is offered. */
  upstreamName?: (providerId: string) => Promise<string | undefined>;
}

/** Where a browser that signed in through an upstream is asked whether to sign out there too (S27). */
export const UPSTREAM_LOGOUT_PATH = '/account/logout/upstream';

/**
 * Sign-out (SPEC.md §7 "Sign-out"): `LogoutView` before and after, `Logout` itself. After an application's
 * sign-out the new anonymous session keeps a short-lived record of it, so the logged-out page can take the browser
 * back to that application (never to an address from the query).
 */
export function createSignOutService(deps: SignOutDeps) {
  const { sessions, auth, oidc, now } = deps;

  /** The record of the sign-out this browser just finished, when `logoutId` names it and it is still fresh. */
  function finishedSignOut(session: Session | undefined, logoutId: string | undefined) {
    const finished = session?.record.data.loggedOut;
    if (!session || !finished || !logoutId || !safeEqual(finished.id, logoutId)) return undefined;
    return finished.expiresAt > now() ? finished : undefined;
  }

  /** The upstream sign-out this browser may still answer, with its provider's name. */
  async function pendingUpstreamLogout(session: Session | undefined) {
    const record = session?.record.data.upstreamLogout;
    if (!record || record.expiresAt <= now()) return undefined;
    const name = await deps.upstreamName?.(record.providerId);
    return name ? { record, name } : undefined;
  }

  return {
    pendingUpstreamLogout,

    /** Forgets the upstream sign-out question (answered). */
    async forgetUpstreamLogout(session: Session): Promise<void> {
      delete session.record.data.upstreamLogout;
      await sessions.save(session);
    },

    /**
     * `LogoutView`. After a sign-out: the way back to the application. `consume` (a POST) uses the record up, so
     * the link is offered once; a GET only reads it, since a GET never changes state. Before a sign-out: whether
     * the user must confirm (S32).
     */
    async view(browser: Browser, logoutId: string | undefined, consume: boolean): Promise<LogoutView> {
      const session = await browser.current();
      const finished = finishedSignOut(session, logoutId);
      const upstream = await pendingUpstreamLogout(session);
      const upstreamName = upstream ? { upstream: upstream.name } : {};
      if (session && finished) {
        if (consume) {
          delete session.record.data.loggedOut;
          await sessions.save(session);
        }
        return {
          logoutId: finished.id,
          showLogoutPrompt: false,
          loggedOut: true,
          ...(finished.clientName ? { clientName: finished.clientName } : {}),
          postLogoutRedirectUri: finished.postLogoutRedirectUri,
          ...upstreamName,
        };
      }
      const signedIn = await auth.getSignedInAccount(browser);
      const described = oidc?.describeLogout ? await oidc.describeLogout(logoutId, browser) : undefined;
      return {
        ...(logoutId ? { logoutId } : {}),
        // Without proof from the client (id_token_hint) a signed-in user confirms first (S32).
        showLogoutPrompt: signedIn !== undefined && (described?.showLogoutPrompt ?? true),
        ...(described?.clientName ? { clientName: described.clientName } : {}),
        ...upstreamName,
      };
    },

    /**
     * `Logout`: ends the OIDC session (back-channel logout to the clients) and the site session (the old cookie is
     * dead, S27), starts a fresh anonymous one, and answers where the browser goes: always the logged-out page.
     */
    async signOut(
      browser: Browser,
      input: {
        logoutId: string | undefined;
        ip: string | null;
        /** `inactivity`: the shell's idle timer asked (SilentLogout, ADR 0020). */
        reason?: 'inactivity' | undefined;
      },
    ): Promise<{ session: Session; target: string }> {
      const { logoutId } = input;
      const before = await browser.lookup();
      const account = await auth.getSignedInAccount(browser);
      // Signed in through an upstream (ADR 0018): the next page asks whether to sign out there too (S27).
      const upstream = account ? (await browser.current())?.record.data.upstream : undefined;
      const upstreamName = upstream ? await deps.upstreamName?.(upstream.providerId) : undefined;
      const ended = oidc?.endSession ? await oidc.endSession(logoutId, browser) : undefined;
      const next = await browser.end();
      if (account) {
        await deps.store.audit.record({
          at: now(),
          kind: 'sign-out',
          userId: account.accountId,
          ip: input.ip,
          data: input.reason ? { reason: input.reason } : {},
        });
      }
      const target = new URLSearchParams();
      if (before.kind === 'expired' || input.reason === 'inactivity') target.set('reason', 'inactivity');
      if (ended?.postLogoutRedirectUri) {
        const id = randomToken(16);
        next.record.data.loggedOut = {
          id,
          ...(ended.clientName ? { clientName: ended.clientName } : {}),
          postLogoutRedirectUri: ended.postLogoutRedirectUri,
          expiresAt: now() + LOGGED_OUT_RECORD_MS,
        };
        await sessions.save(next);
        target.set('logoutId', id);
      }
      // The idle sign-out asks nothing (nobody is there to answer): it lands on the logged-out page, and the
      // upstream's own session is left to the upstream (ADR 0020).
      if (upstream && upstreamName && input.reason !== 'inactivity') {
        const logoutIdOfApp = target.get('logoutId');
        next.record.data.upstreamLogout = {
          providerId: upstream.providerId,
          idToken: upstream.idToken,
          ...(account ? { userId: account.accountId } : {}),
          ...(logoutIdOfApp ? { logoutId: logoutIdOfApp } : {}),
          expiresAt: now() + LOGGED_OUT_RECORD_MS,
        };
        await sessions.save(next);
        const search = target.toString();
        return { session: next, target: `${UPSTREAM_LOGOUT_PATH}${search ? `?${search}` : ''}` };
      }
      const search = target.toString();
      return { session: next, target: `/account/loggedout${search ? `?${search}` : ''}` };
    },
  };
}

/** The sign-out calls' service. */
export type SignOutService = ReturnType<typeof createSignOutService>;
