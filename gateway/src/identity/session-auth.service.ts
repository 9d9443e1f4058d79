import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestSessions } from '../infra/sessions/request-sessions.js';
import type { Store } from '../store/store.js';
import type { User } from '../store/user.repository.js';

/** The signed-in account of a request, as the OIDC provider needs it. */
export interface SignedInAccountInfo {
  accountId: string;
  /** Epoch seconds. */
  authTime: number;
  /** RFC 8176 methods, e.g. ["pwd"]. */
  amr: string[];
  /** The selected customer, once chosen. */
  customerId?: string;
}

/**
 * Reads who is signed in from the gateway session. A pending sign-in (steps still open) is not signed in (S3,
 * S20); a session whose user was disabled or changed credentials since is not either (S15, S29).
 */
export function createSessionAuthService(store: Pick<Store, 'users'>, sessions: RequestSessions) {
  async function signedInUser(
    req: IncomingMessage,
  ): Promise<{ user: User; info: SignedInAccountInfo } | undefined> {
    const session = await sessions.current(req);
    const account = session?.record.data.account;
    if (!account) return undefined;
    const user = await store.users.findById(account.userId);
    if (!user || user.disabled || user.securityStamp !== account.securityStamp) return undefined;
    return {
      user,
      info: {
        accountId: user.id,
        authTime: account.authTime,
        amr: account.amr,
        ...(account.customerId ? { customerId: account.customerId } : {}),
      },
    };
  }

  return {
    signedInUser,
    /** `{ accountId, authTime, amr }` of the request's signed-in account, or undefined. */
    getSignedInAccount: async (req: IncomingMessage): Promise<SignedInAccountInfo | undefined> =>
      (await signedInUser(req))?.info,
    /** Ends the gateway session server-side (the old cookie is dead) and starts a fresh anonymous one. */
    signOut: async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
      await sessions.end(req, res);
    },
  };
}

/** The session-reading service handed to the OIDC mount. */
export type SessionAuthService = ReturnType<typeof createSessionAuthService>;
