import {
  groupCode,
  partnerDisplayName,
  PIN_LENGTH,
  SMS_CODE_LENGTH,
  type CodeSent,
  type LoginWith2faView,
  type PinReference,
  type Setup2faView,
  type TwoFactorMethod,
} from 'shared-contracts';
import type { Clock } from '../../infra/clock.js';
import type { CookieJar } from '../../infra/cookie-jar.js';
import { randomToken } from '../../infra/crypto/tokens.js';
import type { KeyValueStore } from '../../infra/kv/key-value-store.js';
import type { Mailer } from '../../infra/mail/mailer.js';
import { renderMail } from '../../infra/mail/templates.js';
import type { SmsSender } from '../../infra/sms/sms-sender.js';
import { renderSmsCode } from '../../infra/sms/sms-texts.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/user.repository.js';
import type { RememberedBrowsers } from './remembered-browsers.js';
import {
  choosePositions,
  deliveredCodes,
  DELIVERED_CODE_TTL_MS,
  digitsAt,
  maskEmail,
  maskPhone,
} from './delivered-codes.js';
import { newRecoveryCodes, recoveryCodeHash } from './recovery-codes.js';
import { groupSecret, matchTotpStep, newTotpSecret, totpQrSvg, totpUri } from './totp.service.js';

/**
 * Second-factor throttles (S6, issue 39, ADR 0008). Wrong answers are counted in fixed windows (a refused attempt
 * never lengthens one) in the shared key-value store, so all replicas see one count:
 * - a browser where this account completed a sign-in with its second factor before (a signed, stamp-bound cookie)
 *   has its own counter, {@link MFA_OWN_MAX_ATTEMPTS} per {@link MFA_OWN_WINDOW_MS}: strangers cannot lock it out;
 * - every other browser shares the account's strangers' counter, {@link MFA_STRANGER_MAX_ATTEMPTS} per
 *   {@link MFA_STRANGER_WINDOW_MS}: with codes of 10⁻⁶ (3 × 10⁻⁶ for TOTP's ±1 step) that bounds a guess getting
 *   through within an hour to ≤ 9 × 10⁻⁶ whatever the number of sources, as long as the owner does not sign in
 *   from a new browser meanwhile (a right answer starts the count again; the arithmetic is in ADR 0008);
 * - recovery codes (≥ 50 bits each) have budgets of their own, so the owner's recovery code still works while
 *   strangers have used up the code budget.
 */
export const MFA_OWN_MAX_ATTEMPTS = 5;
export const MFA_OWN_WINDOW_MS = 15 * 60_000;
export const MFA_STRANGER_MAX_ATTEMPTS = 3;
export const MFA_STRANGER_WINDOW_MS = 60 * 60_000;
export const RECOVERY_CODE_MAX_ATTEMPTS = 10;
/** The set-up wizard's confirmations (a signed-in account or the set-up step of a sign-in). */
export const MFA_MAX_ATTEMPTS = 5;
export const MFA_ATTEMPT_WINDOW_MS = 15 * 60_000;
/** A new authenticator secret waits this long for its first code. */
export const SETUP_SECRET_TTL_MS = 15 * 60_000;
/** A new set of recovery codes can be shown within this time, once. */
export const RECOVERY_CODES_TTL_MS = 10 * 60_000;
/** "Recent" for changing 2FA from a signed-in account (S21). */
export const RECENT_SIGN_IN_MS = 10 * 60_000;

/** PIN mails a user may cause (first sends and resends) within {@link SEND_WINDOW_MS}. */
export const MAX_PIN_MAILS = 5;
/** Texts a user may cause (sign-in codes and phone verification) within {@link SEND_WINDOW_MS}: SMS cost money. */
export const MAX_SMS = 6;
export const SEND_WINDOW_MS = 60 * 60_000;

/** What checking a code leads to. */
export type CodeOutcome = 'ok' | 'invalid' | 'throttled';

/** What asking for an SMS leads to: sent (or waiting for its resend time), over the limit, or not deliverable. */
export type SendOutcome = CodeSent | 'throttled' | 'failed';

/** What the two-factor service needs. */
export interface TwoFactorServiceDeps {
  store: Store;
  kv: KeyValueStore;
  clock: Clock;
  /** The e-mailed PIN goes out here (SMTP or the dev outbox). */
  mailer: Mailer;
  /** SMS codes go out here (the webhook provider or the dev outbox). */
  sms: SmsSender;
  /** "Remember this browser" after a second factor, where the user's partner allows it. */
  rememberedBrowsers?: RememberedBrowsers | undefined;
}

/**
 * Where a mailed or texted code belongs: an opaque key of one pending sign-in (or one set-up in one session), made
 * by the caller; a code kept under one binding cannot be used under another (S18).
 */
export type CodeBinding = string;

const keys = {
  /** The strangers' counter of an account, or a known browser's own. */
  attempts: (userId: string, device?: string) =>
    device ? `mfa:attempts:${userId}:device:${device}` : `mfa:attempts:${userId}`,
  recoveryAttempts: (userId: string, device?: string) =>
    device ? `mfa:recovery-attempts:${userId}:device:${device}` : `mfa:recovery-attempts:${userId}`,
  setupAttempts: (userId: string) => `mfa:setup-attempts:${userId}`,
  setupSecret: (userId: string) => `mfa:setup:${userId}`,
  codes: (id: string) => `mfa:codes:${id}`,
  pin: (binding: CodeBinding) => `mfa:pin:${binding}`,
  sms: (binding: CodeBinding) => `mfa:sms:${binding}`,
  phone: (binding: CodeBinding) => `mfa:phone:${binding}`,
  pinMails: (userId: string) => `mfa:pin-mails:${userId}`,
  texts: (userId: string) => `mfa:texts:${userId}`,
};

/**
 * The second factor (SPEC.md §7 "Two-factor and codes", ADR 0008): the authenticator app (TOTP) and recovery
 * codes, at sign-in and in the set-up wizard. HTTP-free; the router maps outcomes to the protocol.
 */
export function createTwoFactorService({
  store,
  kv,
  clock,
  mailer,
  sms,
  rememberedBrowsers,
}: TwoFactorServiceDeps) {
  const delivered = deliveredCodes(kv, store.secrets, clock);

  /**
   * Reserves one attempt before any code is checked, so N parallel wrong codes evaluate at most the limit (S5/S6);
   * false when the user is over it.
   */
  async function reserveAttempt(
    key: string,
    max = MFA_MAX_ATTEMPTS,
    windowMs = MFA_ATTEMPT_WINDOW_MS,
  ): Promise<boolean> {
    return (await kv.increment(key, windowMs, 'fixed')) <= max;
  }

  /** Reserves a sign-in code attempt on the browser's own counter when it is a known one, else the strangers'. */
  function reserveCodeAttempt(userId: string, device: string | undefined): Promise<boolean> {
    return device
      ? reserveAttempt(keys.attempts(userId, device), MFA_OWN_MAX_ATTEMPTS, MFA_OWN_WINDOW_MS)
      : reserveAttempt(keys.attempts(userId), MFA_STRANGER_MAX_ATTEMPTS, MFA_STRANGER_WINDOW_MS);
  }

  async function issuerFor(user: User): Promise<string> {
    const partner = user.partnerId ? await store.partners.findById(user.partnerId) : undefined;
    return partnerDisplayName(
      partner?.name ?? (await store.partners.findForHost(undefined))?.name ?? 'Identity',
      'Identity',
    );
  }

  /** The methods the account has set up, preferred first (the PIN only while the account has an address). */
  async function methodsOf(userId: string, user?: User): Promise<TwoFactorMethod[]> {
    const factor = await store.secondFactors.find(userId);
    if (!factor?.enabled) return [];
    const email = (user ?? (await store.users.findById(userId)))?.email;
    const methods: TwoFactorMethod[] = [];
    if (factor.totpSecretSealed) methods.push('authenticator');
    if (factor.smsPhone) methods.push('sms');
    if (factor.pinEnabled && email) methods.push('pin');
    const preferred = methods.find((m) => m === factor.preferredMethod);
    return preferred ? [preferred, ...methods.filter((m) => m !== preferred)] : methods;
  }

  /** Whether the user's partner offers "remember this browser" (off by default, ADR 0008). */
  async function rememberAllowed(user: User | undefined): Promise<boolean> {
    if (!rememberedBrowsers || !user?.partnerId) return false;
    return (await store.partners.findById(user.partnerId))?.rememberTwoFactorBrowser ?? false;
  }

  /** Whether the user may cause one more mail or text within the window (kept in the shared store). */
  async function underSendLimit(key: string, max: number): Promise<boolean> {
    return (await kv.increment(key, SEND_WINDOW_MS)) <= max;
  }

  /**
   * Mails a PIN for `binding` unless one is live there (`forced`: a new PIN in any case, the old one dies). The
   * mail is in the visitor's language and names the partner. False when the account has no address, the user
   * asked for too many, or the mail could not be handed over.
   */
  async function mailPin(
    user: User,
    binding: CodeBinding,
    forced: boolean,
    locale: string | undefined,
  ): Promise<boolean> {
    if (!user.email) return false;
    const key = keys.pin(binding);
    const live = await delivered.read(key);
    if (!forced && live?.userId === user.id && live.expiresAt > clock.now()) return true;
    if (!(await underSendLimit(keys.pinMails(user.id), MAX_PIN_MAILS))) return false;
    const record = delivered.fresh(user.id, PIN_LENGTH, { positions: choosePositions() });
    await delivered.write(key, record);
    const mail = renderMail('pin', locale, {
      partnerName: await issuerFor(user),
      displayName: user.displayName,
      pin: record.code,
      expiresInMinutes: DELIVERED_CODE_TTL_MS / 60_000,
    });
    try {
      await mailer.send({ to: user.email, subject: mail.subject, text: mail.text, html: mail.html });
    } catch {
      await delivered.delete(key);
      return false;
    }
    return true;
  }

  /**
   * Texts a new code to `phone` under `key`, unless the last one there went out less than its wait ago (the wait
   * doubles with each resend); a new code replaces the old one.
   */
  async function textCode(
    user: User,
    key: string,
    phone: string,
    locale: string | undefined,
  ): Promise<SendOutcome> {
    const now = clock.now();
    const live = await delivered.read(key);
    const same = live?.userId === user.id && live.phone === phone && live.expiresAt > now;
    if (same && live.nextSendAt !== undefined && now < live.nextSendAt)
      return {
        sent: false,
        maskedPhone: maskPhone(phone),
        retryAfterSeconds: Math.ceil((live.nextSendAt - now) / 1000),
      };
    if (!(await underSendLimit(keys.texts(user.id), MAX_SMS))) return 'throttled';
    const sends = (same ? (live.sends ?? 0) : 0) + 1;
    const wait = delivered.waitAfter(sends);
    const record = delivered.fresh(user.id, SMS_CODE_LENGTH, { phone, sends, nextSendAt: now + wait * 1000 });
    await delivered.write(key, record);
    const text = renderSmsCode(locale, {
      partnerName: await issuerFor(user),
      code: record.code,
      expiresInMinutes: DELIVERED_CODE_TTL_MS / 60_000,
    });
    try {
      await sms.send({ to: phone, text });
    } catch {
      await delivered.delete(key);
      return 'failed';
    }
    return { sent: true, maskedPhone: maskPhone(phone), retryAfterSeconds: wait };
  }

  /** New recovery codes for `userId`, kept to be shown once under the returned id. */
  async function newRecoveryCodeSet(userId: string): Promise<string> {
    const codes = newRecoveryCodes();
    await store.recoveryCodes.replace(
      userId,
      codes.map((c) => recoveryCodeHash(userId, c)),
    );
    const recoveryCodesId = randomToken(24);
    await kv.set(
      keys.codes(recoveryCodesId),
      store.secrets.encrypt(JSON.stringify({ userId, codes })),
      RECOVERY_CODES_TTL_MS,
    );
    return recoveryCodesId;
  }

  /** The end of every confirmed set-up: new recovery codes, the counter reset, the audit record. */
  async function setupDone(userId: string, method: TwoFactorMethod): Promise<SetupResult> {
    const recoveryCodesId = await newRecoveryCodeSet(userId);
    await kv.delete(keys.setupAttempts(userId));
    await store.audit.record({
      at: clock.now(),
      kind: 'two-factor.enabled',
      userId,
      ip: null,
      data: { method },
    });
    return { kind: 'ok', recoveryCodesId };
  }

  return {
    methodsOf,

    /**
     * Whether a signed-in account may change its second factor now (S21): its full sign-in — the second factor
     * included when the account has one — happened within {@link RECENT_SIGN_IN_MS}.
     */
    async recentFullSignIn(
      userId: string,
      authTimeSeconds: number,
      amr: readonly string[],
    ): Promise<boolean> {
      const age = clock.now() - authTimeSeconds * 1000;
      if (age < 0 || age > RECENT_SIGN_IN_MS) return false;
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
      const outcome = await this.checkSignInCode(userId, method, code, binding, device);
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

    /** The check behind {@link verifySignInCode}, without the audit record. */
    async checkSignInCode(
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
    },

    /**
     * After a second factor with "remember this browser" ticked: remembers this browser for the user's 2FA for 30
     * days, when the partner allows it (else nothing).
     */
    async rememberBrowser(jar: CookieJar, userId: string): Promise<void> {
      const user = await store.users.findById(userId);
      if (user && (await rememberAllowed(user))) rememberedBrowsers?.remember(jar, user);
    },

    /** `SendOTP`: a new code texted to the account's verified phone, for this pending sign-in. */
    async sendSignInSms(user: User, binding: CodeBinding, locale: string | undefined): Promise<SendOutcome> {
      const factor = await store.secondFactors.find(user.id);
      if (!factor?.enabled || !factor.smsPhone) return 'failed';
      return textCode(user, keys.sms(binding), factor.smsPhone, locale);
    },

    /** `GeneratePhoneVerification`: a code texted to the phone being set up, for this set-up. */
    sendPhoneVerification(
      user: User,
      binding: CodeBinding,
      phone: string,
      locale: string | undefined,
    ): Promise<SendOutcome> {
      return textCode(user, keys.phone(binding), phone, locale);
    },

    /** `GeneratePin`: mails a PIN for this pending sign-in or set-up (see {@link mailPin}). */
    generatePin: mailPin,

    /**
     * `PinReference`: which digits of the live PIN to type. The first answer after a mail gives the positions chosen
     * then; every later one asks for other digits (a reshuffle) and counts as a wrong answer (issue 39: positions
     * change only with a new PIN or at the cost of an attempt), so the third kills the PIN. Null when no PIN is live
     * for this binding.
     */
    async pinReference(userId: string, binding: CodeBinding): Promise<PinReference> {
      const key = keys.pin(binding);
      const record = await delivered.read(key);
      if (!record?.positions || record.userId !== userId) return null;
      if (!record.shown) {
        if (!(await delivered.write(key, { ...record, shown: true }))) return null;
        return { positions: record.positions, length: record.code.length };
      }
      if (!(await delivered.countWrong(key, record))) return null;
      const positions = choosePositions(PIN_LENGTH, undefined, record.positions);
      if (!(await delivered.write(key, { ...record, positions }))) return null;
      return { positions, length: record.code.length };
    },

    /** `LoginWithRecoveryCode`: uses one code, exactly once however many requests race for it (S19). */
    async redeemRecoveryCode(userId: string, normalisedCode: string, device?: string): Promise<CodeOutcome> {
      const reserved = device
        ? await reserveAttempt(keys.recoveryAttempts(userId, device), MFA_OWN_MAX_ATTEMPTS, MFA_OWN_WINDOW_MS)
        : await reserveAttempt(
            keys.recoveryAttempts(userId),
            RECOVERY_CODE_MAX_ATTEMPTS,
            MFA_STRANGER_WINDOW_MS,
          );
      if (!reserved) return 'throttled';
      const used = await store.recoveryCodes.redeem(userId, recoveryCodeHash(userId, normalisedCode));
      if (!used) return 'invalid';
      await kv.delete(keys.recoveryAttempts(userId, device));
      await store.audit.record({
        at: clock.now(),
        kind: 'two-factor.recovery-code-used',
        userId,
        ip: null,
        data: { remaining: await store.recoveryCodes.remaining(userId) },
      });
      return 'ok';
    },

    /**
     * `Setup2FAView`: a new authenticator secret (kept sealed for {@link SETUP_SECRET_TTL_MS}, the same one on a
     * reload) with its URI, the QR code and the grouped secret.
     */
    async setupView(user: User, duringSignIn: boolean): Promise<Setup2faView> {
      const key = keys.setupSecret(user.id);
      const sealed = await kv.get(key);
      let secret = sealed ? store.secrets.decrypt(sealed) : undefined;
      if (!secret) {
        secret = newTotpSecret();
        await kv.set(key, store.secrets.encrypt(secret), SETUP_SECRET_TTL_MS);
      }
      const issuer = await issuerFor(user);
      const uri = totpUri(secret, issuer, user.username);
      return {
        methods: user.email ? ['authenticator', 'sms', 'pin'] : ['authenticator', 'sms'],
        configured: await methodsOf(user.id, user),
        duringSignIn,
        maskedEmail: user.email ? maskEmail(user.email) : null,
        authenticator: {
          secret: groupSecret(secret),
          uri,
          qrSvg: await totpQrSvg(uri),
          issuer,
          accountName: user.username,
        },
      };
    },

    /**
     * `Validate2faSetupCode`: the first code of the new secret turns the authenticator on (replacing any earlier
     * one) and makes a new set of recovery codes, kept to be shown once under the returned id.
     */
    async confirmAuthenticator(userId: string, code: string): Promise<SetupResult> {
      if (!(await reserveAttempt(keys.setupAttempts(userId)))) return { kind: 'throttled' };
      const sealed = await kv.get(keys.setupSecret(userId));
      if (!sealed) return { kind: 'invalid' };
      const secret = store.secrets.decrypt(sealed);
      const step = matchTotpStep(secret, code, clock.now());
      if (step === undefined) return { kind: 'invalid' };
      // Only the request that takes the waiting secret goes on: two confirmations cannot make two sets of codes.
      if ((await kv.take(keys.setupSecret(userId))) === undefined) return { kind: 'invalid' };
      await store.secondFactors.enableAuthenticator(userId, store.secrets.encrypt(secret), step);
      return setupDone(userId, 'authenticator');
    },

    /**
     * `Validate2faSetupCode` for SMS: the code texted to the new phone (this set-up's, once) proves the phone; it
     * becomes the verified number the SMS method uses.
     */
    async confirmSms(userId: string, code: string, binding: CodeBinding): Promise<SetupResult> {
      if (!(await reserveAttempt(keys.setupAttempts(userId)))) return { kind: 'throttled' };
      const used = await delivered.use(keys.phone(binding), userId, code, (r) => r.code);
      if (!used?.phone) return { kind: 'invalid' };
      await store.secondFactors.enableSms(userId, used.phone);
      return setupDone(userId, 'sms');
    },

    /**
     * `Validate2faSetupCode` for the PIN: the asked digits of the PIN mailed for this set-up prove the user reads
     * the account's address, which is all the method needs.
     */
    async confirmPin(userId: string, code: string, binding: CodeBinding): Promise<SetupResult> {
      if (!(await reserveAttempt(keys.setupAttempts(userId)))) return { kind: 'throttled' };
      const used = await delivered.use(keys.pin(binding), userId, code, (r) =>
        r.positions ? digitsAt(r.code, r.positions) : undefined,
      );
      if (!used) return { kind: 'invalid' };
      await store.secondFactors.enablePin(userId);
      return setupDone(userId, 'pin');
    },

    /**
     * `RedeemRecoveryCode` without an id: a new set on demand for an account with a second factor, replacing the
     * old codes; answered once (grouped), undefined without a factor.
     */
    async regenerateRecoveryCodes(userId: string): Promise<string[] | undefined> {
      if ((await methodsOf(userId)).length === 0) return undefined;
      const id = await newRecoveryCodeSet(userId);
      await store.audit.record({
        at: clock.now(),
        kind: 'two-factor.recovery-codes-regenerated',
        userId,
        ip: null,
        data: {},
      });
      const taken = await kv.take(keys.codes(id));
      const set = taken ? readCodeSet(store, taken) : undefined;
      return set?.codes.map((c) => groupCode(c));
    },

    /** `RedeemRecoveryCode`: the set kept under `id`, for its own user, once (then the id is dead). */
    async takeRecoveryCodes(userId: string, id: string): Promise<string[] | undefined> {
      const key = keys.codes(id);
      const peek = await kv.get(key);
      if (!peek || readCodeSet(store, peek)?.userId !== userId) return undefined;
      const taken = await kv.take(key);
      const set = taken ? readCodeSet(store, taken) : undefined;
      return set?.userId === userId ? set.codes.map((c) => groupCode(c)) : undefined;
    },

    /** `RedeemState`: whether the set under `id` can still be shown to this user. */
    async recoveryCodesAvailable(userId: string, id: string): Promise<boolean> {
      const value = await kv.get(keys.codes(id));
      return value !== undefined && readCodeSet(store, value)?.userId === userId;
    },
  };
}

/** What a set-up confirmation leads to. */
export type SetupResult = { kind: 'ok'; recoveryCodesId: string } | { kind: 'invalid' | 'throttled' };

function readCodeSet(store: Store, sealed: string): { userId: string; codes: string[] } | undefined {
  try {
    return JSON.parse(store.secrets.decrypt(sealed)) as { userId: string; codes: string[] };
  } catch {
    return undefined;
  }
}

/** The second-factor service. */
export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
