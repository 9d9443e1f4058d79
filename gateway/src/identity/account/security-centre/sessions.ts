import type { AccountSession } from 'shared-contracts';
import type { SessionIndex } from '../../../infra/sessions/session-index.js';
import type {
  ChangeOutcome,
  EndOidcSessionsOf,
  SecurityCentreActor,
  SecurityCentreContext,
} from './context.js';
import { sessionNetwork } from './session-network.js';

/** The account's signed-in sessions (ADR 0049): listed, one signed out, all others signed out. */
export function sessionsPart(options: {
  centre: SecurityCentreContext;
  sessionIndex: Pick<SessionIndex, 'sessionsOf' | 'end'>;
  /** Signs the ended sessions' applications out too (S27). */
  endOidcSessions?: EndOidcSessionsOf | undefined;
}) {
  const { centre, sessionIndex, endOidcSessions } = options;
  return {
    /**
     * `SecurityCentreView.sessions`, as the page lists them: this browser's first, then the others by last activity,
     * newest first (a session's row is touched at most every 30 s, so "newest" is to that grain). Each with its
     * network read coarsely, never the full address, and marked when it shares this browser's network.
     */
    view: async (actor: SecurityCentreActor): Promise<AccountSession[]> => {
      const listed = await sessionIndex.sessionsOf(actor.user.id, actor.user.securityStamp);
      const read = listed.map((s) => ({
        session: s,
        current: s.sessionKey === actor.sessionKey,
        ...sessionNetwork(s.ip),
      }));
      const currentKey = read.find((s) => s.current)?.key ?? null;
      read.sort(
        (a, b) => Number(b.current) - Number(a.current) || b.session.lastSeenAt - a.session.lastSeenAt,
      );
      return read.map(({ session, current, network, key }) => ({
        id: session.handle,
        current,
        createdAt: session.createdAt,
        lastSeenAt: session.lastSeenAt,
        network,
        sameNetworkAsCurrent: !current && currentKey !== null && key === currentKey,
        userAgent: session.userAgent,
      }));
    },

    /** `SignOutSession`: ends one of the account's other sessions (its cookie is dead from now on: S27). */
    signOut: (actor: SecurityCentreActor, handle: string): Promise<ChangeOutcome> => {
      return centre.change(
        actor,
        async () => {
          const sessions = await sessionIndex.sessionsOf(actor.user.id, actor.user.securityStamp);
          const target = sessions.find((s) => s.handle === handle);
          if (!target || target.sessionKey === actor.sessionKey) return { kind: 'notFound' };
          await sessionIndex.end(target.sessionKey);
          // Its applications are signed out too: only the OIDC sessions that browser's sign-in made.
          await endOidcSessions?.(actor.user.id, { siteSessions: [target.sessionKey] });
          return { kind: 'done' };
        },
        { kind: 'security-centre.session-signed-out', mail: 'sessions-signed-out', data: { count: 1 } },
      );
    },

    /** `SignOutOtherSessions`: ends every session of the account but this browser's. */
    signOutOthers: (actor: SecurityCentreActor): Promise<ChangeOutcome<number>> => {
      return centre.change<number>(
        actor,
        async () => {
          const sessions = await sessionIndex.sessionsOf(actor.user.id, actor.user.securityStamp);
          const others = sessions.filter((s) => s.sessionKey !== actor.sessionKey);
          for (const other of others) await sessionIndex.end(other.sessionKey);
          // Every OIDC session of the account but this browser's ends with them (back-channel logout).
          await endOidcSessions?.(actor.user.id, { exceptSiteSessions: [actor.sessionKey] });
          return { kind: 'done', value: others.length };
        },
        { kind: 'security-centre.sessions-signed-out', mail: 'sessions-signed-out' },
      );
    },
  };
}
