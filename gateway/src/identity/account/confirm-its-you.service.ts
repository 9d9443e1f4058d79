import {
  loginWithRecoveryCodeRequestSchema,
  normaliseCode,
  type ConfirmItsYouCodeSent,
  type ConfirmItsYouSecondFactor,
  type ConfirmItsYouSendCodeRequest,
  type ConfirmItsYouView,
  type SecureSignInPayload,
} from 'shared-contracts';
import type { Clock } from '../../infra/clock.js';
import { sha256 } from '../../infra/crypto/tokens.js';
import type { KeyValueStore } from '../../infra/kv/key-value-store.js';
import { ThrottleUnavailableError, type LoginThrottle } from '../../infra/throttle/login-throttle.js';
import { waitSeconds } from '../../infra/throttle/wait.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/user.repository.js';
import { maskEmail, maskPhone } from '../two-factor/delivered-codes.js';
import { MFA_OWN_WINDOW_MS } from '../two-factor/two-factor-context.js';
import type { CodeBinding, TwoFactorService } from '../two-factor/two-factor.service.js';
import { verifyPassword } from '../passwords/passwords.service.js';
import type { WebauthnService } from '../passkeys/webauthn.service.js';
import type { FieldErrors } from './security-centre/context.js';

/**
 * How long a password proved in the dialog waits for its second factor: long enough to open the authenticator app
 * or find a recovery code, short enough that a browser left open does not hold half a confirmation for long.
 */
export const CONFIRM_ITS_YOU_PASSWORD_TTL_MS = 5 * 60_000;

const passwordProvedKey = (sessionKey: string) => `confirm-its-you:password:${sessionKey}`;

/** Who confirms: the signed-in account and the facts of the request the router read. */
export interface ConfirmingActor {
  user: User;
  /** The session store's key of the asking browser's session: a proved password is kept for this session only. */
  sessionKey: string;
  /** Source address, for the throttle and the audit trail. */
  ip: string;
  /** This browser's id when it is a known browser of the account (the sign-in throttle's signed cookie, S7). */
  knownBrowser: string | undefined;
  /** This browser's id when it completed a sign-in with the account's second factor before (issue 39). */
  secondFactorBrowser: string | undefined;
}

/**
 * What a confirmation step got to. `confirmed` carries the methods proved (OIDC amr): the router renews the
 * session's sign-in time with them, and nothing else does.
 */
export type ConfirmOutcome =
  | { kind: 'confirmed'; amr: string[]; authTime: number }
  | { kind: 'secondFactor'; methods: ConfirmItsYouSecondFactor[] }
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'throttled'; retryAfterSeconds?: number }
  | { kind: 'unavailable' };

/**
 * What `ConfirmItsYouSendCode` got to: the code went out (or one sent moments ago is still to be used), the password
 * was not proved first, too many sent (the account's send budget, ADR 0043), or the text or mail failed.
 */
export type SendCodeOutcome =
  | { kind: 'sent'; answer: ConfirmItsYouCodeSent }
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'throttled' }
  | { kind: 'failed' };

/** Dependencies of {@link createConfirmItsYouService}. */
export interface ConfirmItsYouDeps {
  store: Store;
  kv: KeyValueStore;
  clock: Clock;
  /** The sign-in's own throttle: a wrong password here counts toward the same lockout as one at sign-in (S4–S7). */
  throttle: LoginThrottle;
  twoFactor: Pick<
    TwoFactorService,
    'methodsOf' | 'verifySignInCode' | 'redeemRecoveryCode' | 'sendSignInSms' | 'generatePin' | 'pinReference'
  >;
  webauthn: Pick<WebauthnService, 'verifyAssertion' | 'devicesOf'>;
}

/**
 * "Confirm it's you" (issue 49, ADR 0045): a signed-in person proves a factor of their account again, in place, to
 * renew the recent-sign-in window of S21 (ADR 0036) without ending the session. The same proofs as a sign-in and
 * the same rule for what counts (ADR 0005 "Only a proved factor renews the sign-in time"): the password (then the
 * second factor when the account has one), or a passkey. Every guess is throttled by the sign-in's own counters.
 */
export function createConfirmItsYouService(deps: ConfirmItsYouDeps) {
  const { store, kv, clock, throttle, twoFactor, webauthn } = deps;
  /** The new sign-in time (epoch seconds, as OIDC auth_time): the moment the factor was proved. */
  const secondsNow = () => Math.floor(clock.now() / 1000);

  /**
   * What the dialog can ask after the password for `user`: every method of the account, its default first (the
   * authenticator app, a texted code, the mailed PIN: the two last sent only when the person presses Send, through
   * `ConfirmItsYouSendCode`) and, when any codes are left, a recovery code.
   */
  async function secondFactorOf(
    user: User,
  ): Promise<{ needed: boolean; offered: ConfirmItsYouSecondFactor[] }> {
    const methods = await twoFactor.methodsOf(user.id, user);
    if (methods.length === 0) return { needed: false, offered: [] };
    const offered: ConfirmItsYouSecondFactor[] = [...methods];
    if ((await store.recoveryCodes.remaining(user.id)) > 0) offered.push('recoveryCode');
    return { needed: true, offered };
  }

  /** Whether the password was proved in this session for this account within the last few minutes. */
  async function passwordProved(actor: ConfirmingActor): Promise<boolean> {
    const proved = await kv.get(passwordProvedKey(actor.sessionKey));
    return proved ? (JSON.parse(proved) as { userId?: unknown }).userId === actor.user.id : false;
  }

  async function audit(user: User, ip: string, kind: string, data: Record<string, unknown> = {}) {
    await store.audit.record({ at: clock.now(), kind: `confirm-its-you.${kind}`, userId: user.id, ip, data });
  }

  return {
    /** `ConfirmItsYouView`: what the dialog may ask this account for. */
    async view(user: User): Promise<ConfirmItsYouView> {
      const secondFactor = await secondFactorOf(user);
      const phone = secondFactor.offered.includes('sms')
        ? (await store.secondFactors.find(user.id))?.smsPhone
        : undefined;
      return {
        // The password is offered only when it can lead to a confirmation: alone, or with a factor the dialog asks.
        password:
          user.passwordHash !== null &&
          !user.vendorId &&
          (!secondFactor.needed || secondFactor.offered.length > 0),
        passkey: !user.vendorId && (await webauthn.devicesOf(user.id)).length > 0,
        secondFactor: secondFactor.offered,
        ...(phone ? { maskedPhone: maskPhone(phone) } : {}),
        ...(secondFactor.offered.includes('pin') && user.email ? { maskedEmail: maskEmail(user.email) } : {}),
      };
    },

    /**
     * `ConfirmItsYou {password}`: checked as `Login` checks it — the sign-in throttle reserved first (S5), the same
     * account key, so guesses here and at the sign-in page share one budget and one lockout (S4, S7). A right
     * password confirms at once when the account has no second factor; otherwise it is kept for this session for
     * {@link CONFIRM_ITS_YOU_PASSWORD_TTL_MS} and the second factor is asked.
     */
    async confirmPassword(actor: ConfirmingActor, password: string): Promise<ConfirmOutcome> {
      const { user } = actor;
      let decision;
      try {
        decision = await throttle.begin({
          account: `user:${user.id}`,
          source: actor.ip,
          device: actor.knownBrowser,
        });
      } catch (error) {
        if (error instanceof ThrottleUnavailableError) return { kind: 'unavailable' };
        throw error;
      }
      if (!decision.allowed) {
        await audit(user, actor.ip, 'locked', { retryAfterSeconds: decision.retryAfterSeconds });
        return { kind: 'throttled', retryAfterSeconds: decision.retryAfterSeconds };
      }
      const ok =
        user.passwordHash !== null &&
        !user.vendorId &&
        !user.disabled &&
        (await verifyPassword(user.passwordHash, password));
      if (!ok) {
        await Promise.all([
          throttle.failed(decision.attempt).catch(() => {
            // The attempt failed anyway; the next one meets the store error and fails closed (S8).
          }),
          audit(user, actor.ip, 'failed', { reason: 'password' }),
        ]);
        return { kind: 'invalid', errors: { password: ['currentPasswordIncorrect'] } };
      }
      try {
        await throttle.succeeded(decision.attempt);
      } catch {
        return { kind: 'unavailable' };
      }
      const secondFactor = await secondFactorOf(user);
      if (!secondFactor.needed) {
        await audit(user, actor.ip, 'confirmed', { with: 'password' });
        return { kind: 'confirmed', amr: ['pwd'], authTime: secondsNow() };
      }
      await kv.set(
        passwordProvedKey(actor.sessionKey),
        JSON.stringify({ userId: user.id, at: clock.now() }),
        CONFIRM_ITS_YOU_PASSWORD_TTL_MS,
      );
      await audit(user, actor.ip, 'password');
      return { kind: 'secondFactor', methods: secondFactor.offered };
    },

    /**
     * `ConfirmItsYouSecondFactor`: after a password proved in this session, a code of a method the account has or
     * one of its recovery codes, checked (and throttled, S6; once per TOTP step, S17; a recovery code once, S19) by
     * the sign-in's own second-factor check. A "remembered browser" does not stand in for it: S21 wants the factor.
     */
    async confirmSecondFactor(
      actor: ConfirmingActor,
      method: ConfirmItsYouSecondFactor,
      typed: string,
      binding: CodeBinding,
    ): Promise<ConfirmOutcome> {
      const { user } = actor;
      // Without the password first this is no confirmation at all: the dialog starts again from the password.
      if (!(await passwordProved(actor)))
        return { kind: 'invalid', errors: { '': ['confirmItsYouPasswordFirst'] } };
      let outcome;
      if (method === 'recoveryCode') {
        const parsed = loginWithRecoveryCodeRequestSchema.safeParse({ recoveryCode: typed });
        if (!parsed.success) return { kind: 'invalid', errors: { code: ['invalidCode'] } };
        outcome = await twoFactor.redeemRecoveryCode(
          user.id,
          parsed.data.recoveryCode,
          actor.secondFactorBrowser,
        );
      } else {
        const code = normaliseCode(typed);
        if (!/^[0-9]{1,12}$/.test(code)) return { kind: 'invalid', errors: { code: ['invalidCode'] } };
        outcome = await twoFactor.verifySignInCode(user.id, method, code, binding, actor.secondFactorBrowser);
      }
      // The owner's budget of code attempts counts over MFA_OWN_WINDOW_MS, as at sign-in's 2FA page.
      if (outcome === 'throttled')
        return { kind: 'throttled', retryAfterSeconds: waitSeconds({ ms: MFA_OWN_WINDOW_MS }) };
      if (outcome === 'invalid') {
        await audit(user, actor.ip, 'failed', { reason: 'second-factor', method });
        return { kind: 'invalid', errors: { code: ['invalidCode'] } };
      }
      await kv.delete(passwordProvedKey(actor.sessionKey));
      await audit(user, actor.ip, 'confirmed', { with: method });
      return {
        kind: 'confirmed',
        amr: method === 'recoveryCode' ? ['pwd', 'mfa'] : ['pwd', 'otp', 'mfa'],
        authTime: secondsNow(),
      };
    },

    /**
     * `ConfirmItsYouSendCode`: after a password proved in this session, texts a code to the account's phone or mails
     * it a new PIN, for this session's confirmation only (`binding`, never a sign-in's), when the person pressed
     * Send: nothing goes out on its own. The sign-in's own sending rules apply (a text resent only after its wait,
     * the send budgets of ADR 0043); a method the account does not have is refused like a wrong code.
     */
    async sendCode(
      actor: ConfirmingActor,
      method: ConfirmItsYouSendCodeRequest['method'],
      binding: CodeBinding,
      locale: string | undefined,
    ): Promise<SendCodeOutcome> {
      const { user } = actor;
      if (!(await passwordProved(actor)))
        return { kind: 'invalid', errors: { '': ['confirmItsYouPasswordFirst'] } };
      if (!(await twoFactor.methodsOf(user.id, user)).includes(method))
        return { kind: 'invalid', errors: { method: ['invalidValue'] } };
      if (method === 'sms') {
        const sent = await twoFactor.sendSignInSms(user, binding, locale, actor.secondFactorBrowser);
        if (sent === 'throttled' || sent === 'failed') return { kind: sent };
        if (sent.sent) await audit(user, actor.ip, 'code-sent', { method });
        return {
          kind: 'sent',
          answer: { sent: sent.sent, to: sent.maskedPhone, retryAfterSeconds: sent.retryAfterSeconds },
        };
      }
      // A new PIN at each press (the previous one dies), and the digits to type of it.
      if (!(await twoFactor.generatePin(user, binding, true, locale, actor.secondFactorBrowser)))
        return { kind: 'failed' };
      const reference = await twoFactor.pinReference(user.id, binding);
      if (!reference) return { kind: 'failed' };
      await audit(user, actor.ip, 'code-sent', { method });
      return {
        kind: 'sent',
        answer: {
          sent: true,
          to: user.email ? maskEmail(user.email) : null,
          retryAfterSeconds: 0,
          positions: reference.positions,
        },
      };
    },

    /**
     * `ConfirmItsYou {passkey}`: an assertion (user verification required) to this session's `AssertionOptions`
     * challenge, of a passkey of this very account — a passkey of another account proves nothing here. Both factors
     * at once (ADR 0016).
     */
    async confirmPasskey(
      actor: ConfirmingActor,
      payload: SecureSignInPayload,
      sessionId: string,
    ): Promise<ConfirmOutcome & { reason?: string }> {
      const { user } = actor;
      const outcome = await webauthn.verifyAssertion(payload, sessionId);
      if (outcome.kind !== 'ok' || outcome.user.id !== user.id) {
        const reason = outcome.kind === 'ok' ? 'other-account' : outcome.reason;
        await audit(user, actor.ip, 'failed', { reason: `passkey:${reason}` });
        return { kind: 'invalid', errors: { '': ['secureSignInFailed'] }, reason };
      }
      await audit(user, actor.ip, 'confirmed', { with: 'passkey', credentialId: outcome.credential.id });
      return { kind: 'confirmed', amr: ['hwk', 'user', 'mfa'], authTime: secondsNow() };
    },
  };
}

/** The confirmation service. */
export type ConfirmItsYouService = ReturnType<typeof createConfirmItsYouService>;

/** The key a texted code or PIN of a confirmation is kept under: this session's confirmation, never a sign-in's. */
export function confirmItsYouBinding(sessionId: string): CodeBinding {
  return sha256(`confirm-its-you|${sessionId}`);
}
