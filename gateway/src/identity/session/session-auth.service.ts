import { ANONYMOUS_USER, type CurrentUser } from 'shared-contracts';
import { sha256 } from '../../infra/crypto/tokens.js';
import type { Session } from '../../infra/sessions/session-manager.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/user.repository.js';
import type { Browser, SessionReader } from '../browser.js';

/** The signed-in account of a request, as the OIDC provider needs it. */
export interface SignedInAccountInfo {
  accountId: string;
  /** Epoch seconds. */
  authTime: number;
  /** RFC 8176 methods, e.g. ["pwd"]. */
  amr: string[];
  /** The selected customer, once chosen. */
  customerId?: string;
  /** Epoch seconds of that choice. */
  customerSelectedAt?: number;
  /** Remember-me: the site session outlives the browser, so the OIDC session may too. */
  persistent?: boolean;
  /** Epoch ms of the site session's absolute end; the OIDC session never outlives it. */
  expiresAt?: number;
  /**
   * The site session's store key (a hash of its id, as the session index lists it): the OIDC sessions made from
   * this sign-in are linked to it, so ending this site session elsewhere ends them too (ADR 0006).
   */
  siteSessionKey?: string;
}

/**
 * Reads who is signed in from the gateway session. A pending sign-in (steps still open) is not signed in (S3,
 * S20); a session whose user was disabled or changed credentials since is not either (S15, S29).
 */
export function createSessionAuthService(
  store: Pick<Store, 'users'>,
  /** The page of the step a live pending sign-in waits at, if any (the sign-in state machine). */
  pendingStepPath: (session: Session | undefined) => string | undefined = () => undefined,
) {
  async function signedInUser(
    reader: SessionReader,
  ): Promise<{ user: User; info: SignedInAccountInfo } | undefined> {
    const session = await reader.current();
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
        ...(account.customerSelectedAt !== undefined
          ? { customerSelectedAt: account.customerSelectedAt }
          : {}),
        persistent: session.record.persistent,
        expiresAt: session.record.absoluteExpiresAt,
        siteSessionKey: sha256(session.id),
      },
    };
  }

  /**
   * The `User` call's answer: who is signed in, or — while a sign-in is pending — not signed in, with the page of
   * the step it waits at, so the shell's guard lets the user reach that page and nothing else.
   */
  async function currentUser(reader: SessionReader): Promise<CurrentUser> {
    const signedIn = await signedInUser(reader);
    if (!signedIn) {
      const signInStep = pendingStepPath(await reader.current());
      return signInStep ? { isAuthenticated: false, signInStep } : ANONYMOUS_USER;
    }
    const { user, info } = signedIn;
    return {
      isAuthenticated: true,
      subject: user.id,
      userName: user.username,
      displayName: user.displayName,
      ...(user.email ? { email: user.email } : {}),
      roles: user.roles,
      ...(info.customerId ? { customerId: info.customerId } : {}),
    };
  }

  return {
    signedInUser,
    currentUser,
    /** `{ accountId, authTime, amr }` of the request's signed-in account, or undefined. */
    getSignedInAccount: async (reader: SessionReader): Promise<SignedInAccountInfo | undefined> =>
      (await signedInUser(reader))?.info,
    /** Ends the gateway session server-side (the old cookie is dead) and starts a fresh anonymous one. */
    signOut: async (browser: Browser): Promise<void> => {
      await browser.end();
    },
  };
}

/** The session-reading service handed to the OIDC mount. */
export type SessionAuthService = ReturnType<typeof createSessionAuthService>;
