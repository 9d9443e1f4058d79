import { type LoginWith2faView, type TwoFactorMethod } from 'shared-contracts';
import type { CookieJar } from '../../infra/cookie-jar.js';
import type { User } from '../../store/user.repository.js';
import { digitsAt, maskEmail, maskPhone } from './delivered-codes.js';
import { matchTotpStep } from './totp.service.js';
import { keys, type CodeBinding, type CodeOutcome, type TwoFactorContext } from './two-factor-context.js';

/**
 * The second factor at sign-in (ADR 0008): what the 2FA page shows, the code check (throttled, S6; once per TOTP
 * step, S17; this pending sign-in's texted code or PIN only, S18), "remember this browser", and whether a signed-in
 * account's full sign-in is recent enough to change its factor (S21).
 */
export function secondFactorCheck(ctx: TwoFactorContext) {
  const {
    store,
    kv,
    clock,
    delivered,
    reserveCodeAttempt,
    methodsOf,
    rememberAllowed,
    rememberedBrowsers,
    recentSignInMs,
  } = ctx;

  /** The check behind {@link verifySignInCode}, without the audit record. */
  async function checkSignInCode(
    userId: string,
    method: TwoFactorMethod,
    code: string,
    binding: CodeBinding,
    device?: string,
  ): Promise<CodeOutcome> {
    if (!(await reserveCodeAttempt(userId, device))) return 'throttled';
    if (!(await methodsOf(userId)).includes(method)) return 'invalid';
    if (method === 'authenticator') {
      const factor = await store.secondFactors.find(userId);
      if (!factor?.totpSecretSealed) return 'invalid';
      const step = matchTotpStep(store.secrets.decrypt(factor.totpSecretSealed), code, clock.now());
      if (step === undefined || !(await store.secondFactors.acceptTotpStep(userId, step))) return 'invalid';
    } else if (method === 'sms') {
      const factor = await store.secondFactors.find(userId);
      const used = await delivered.use(keys.sms(binding), userId, code, (r) =>
        r.phone === factor?.smsPhone ? r.code : undefined,
      );
      if (!used) return 'invalid';
    } else {
      const used = await delivered.use(keys.pin(binding), userId, code, (r) =>
        r.positions ? digitsAt(r.code, r.positions) : undefined,
      );
      if (!used) return 'invalid';
    }
    // The counter the attempt was reserved on starts again: a right answer is the owner's, whose later sign-ins
    // must not pay for it (ADR 0008 counts this in the guess bound).
    await kv.delete(keys.attempts(userId, device));
    return 'ok';
  }

  return {
    /** The window of {@link recentFullSignIn} (RECENT_SIGN_IN_SECONDS): a full sign-in allows changes this long. */
    recentSignInMs,

    /**
     * Whether a signed-in account may change how it signs in now (S21): its full sign-in — the second factor
     * included when the account has one — happened within {@link recentSignInMs}. The one rule of every such change
     * (ADR 0036): the security centre, the 2FA set-up, passkeys and linking a login provider all ask here.
     */
    async recentFullSignIn(
      userId: string,
      authTimeSeconds: number,
      amr: readonly string[],
    ): Promise<boolean> {
      const age = clock.now() - authTimeSeconds * 1000;
      if (age < 0 || age > recentSignInMs) return false;
      return (await methodsOf(userId)).length === 0 || amr.includes('mfa');
    },

    /** The user a pending sign-in is for. */
    user: (userId: string): Promise<User | undefined> => store.users.findById(userId),

    /** `LoginWith2FAView`. */
    async loginView(userId: string): Promise<LoginWith2faView> {
      const user = await store.users.findById(userId);
      const methods = await methodsOf(userId, user);
      const factor = await store.secondFactors.find(userId);
      return {
        methods,
        rememberBrowserAllowed: await rememberAllowed(user),
        maskedPhone: methods.includes('sms') && factor?.smsPhone ? maskPhone(factor.smsPhone) : null,
        maskedEmail: methods.includes('pin') && user?.email ? maskEmail(user.email) : null,
      };
    },

    /**
     * `LoginWith2FA`: checks a code of a method the account has (throttled, S6): the authenticator's once per step
     * (S17); the texted code or the asked PIN digits of this pending sign-in only, once (S18).
     */
    async verifySignInCode(
      userId: string,
      method: TwoFactorMethod,
      code: string,
      binding: CodeBinding,
      /** The id of this browser when it completed a sign-in of the account with its second factor before. */
      device?: string,
    ): Promise<CodeOutcome> {
      const outcome = await checkSignInCode(userId, method, code, binding, device);
      // The audit trail of the second factor at sign-in: which method, and why it was refused (never the code).
      await store.audit.record({
        at: clock.now(),
        kind: outcome === 'ok' ? 'two-factor.verified' : 'two-factor.failed',
        userId,
        ip: null,
        data: outcome === 'ok' ? { method } : { method, reason: outcome },
      });
      return outcome;
    },

    /**
     * After a second factor with "remember this browser" ticked: remembers this browser for the user's 2FA for 30
     * days, when the partner allows it (else nothing).
     */
    async rememberBrowser(jar: CookieJar, userId: string): Promise<void> {
      const user = await store.users.findById(userId);
      if (user && (await rememberAllowed(user))) await rememberedBrowsers?.remember(jar, user);
    },
  };
}
