import type { Browser, SessionWriter } from '../browser.js';
import type { Session } from '../../infra/sessions/session-manager.js';

/**
 * The changes of a browser's session that the account's calls make, through the `Browser` port and the
 * `SessionWriter` (issue 50: routers translate HTTP and write no session state; a lint rule keeps them from it).
 */
export interface SessionChanges {
  /** The set-up wizard's code just proved a new factor: the rest of the wizard counts as a full sign-in. */
  addProvedFactors(session: Session, amr: readonly string[]): Promise<void>;
  /** "Remember this browser" at the 2FA step: lasting state, kept until the sign-in completes (issue 39). */
  rememberBrowserOnCompletion(session: Session): void;
  /**
   * A new password came with a new security stamp, which ended every session of the account (S15), this one too.
   * This browser proved the current password: it goes on under a new id (S24) with the new stamp. Undefined when
   * the browser holds no signed-in session.
   */
  continueWithStamp(browser: Browser, securityStamp: string): Promise<Session | undefined>;
  /**
   * "Confirm it's you" proved a factor: the session's sign-in time is renewed (ADR 0005, 0045) under a new id (S24),
   * as a sign-in step would. Undefined when the browser holds no signed-in session.
   */
  renewSignIn(
    browser: Browser,
    proof: { authTime: number; amr: readonly string[] },
  ): Promise<Session | undefined>;
  /** `SignInAgain`: ends the session (S27) and keeps the username for the sign-in form. */
  signInAgain(browser: Browser, username: string): Promise<Session>;
}

/** Builds {@link SessionChanges} over the session writer. */
export function createSessionChanges(writer: SessionWriter): SessionChanges {
  return {
    async addProvedFactors(session, amr) {
      const account = session.record.data.account;
      if (!account) return;
      account.amr = [...new Set([...account.amr, ...amr])];
      await writer.save(session);
    },

    rememberBrowserOnCompletion(session) {
      const pending = session.record.data.pending;
      if (pending) pending.rememberBrowser = true;
    },

    async continueWithStamp(browser, securityStamp) {
      const session = await browser.current();
      const account = session?.record.data.account;
      if (!session || !account) return undefined;
      return browser.regenerate(session, { ...session.record.data, account: { ...account, securityStamp } });
    },

    async renewSignIn(browser, proof) {
      const session = await browser.current();
      const account = session?.record.data.account;
      if (!session || !account) return undefined;
      return browser.regenerate(session, {
        ...session.record.data,
        account: {
          ...account,
          authTime: Math.max(account.authTime, proof.authTime),
          amr: [...new Set([...account.amr, ...proof.amr])],
        },
      });
    },

    async signInAgain(browser, username) {
      const next = await browser.end();
      next.record.data.username = username;
      await writer.save(next);
      return next;
    },
  };
}
