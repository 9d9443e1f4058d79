import { PIN_LENGTH, SMS_CODE_LENGTH, type PinReference } from 'shared-contracts';
import { renderMail } from '../../infra/mail/templates.js';
import { renderSmsCode } from '../../infra/sms/sms-texts.js';
import { waitSeconds } from '../../infra/throttle/wait.js';
import type { User } from '../../store/user.repository.js';
import { choosePositions, DELIVERED_CODE_TTL_MS, maskPhone } from './delivered-codes.js';
import {
  keys,
  MAX_PIN_MAILS,
  MAX_SMS,
  SEND_WINDOW_MS,
  type CodeBinding,
  type SendOutcome,
  type TwoFactorContext,
} from './two-factor-context.js';

/**
 * Every mail or text of one account within {@link SEND_WINDOW_MS}, whoever asked (issue 48, ADR 0043): three times
 * a budget, so strangers alone (one shared budget) never reach it, while a loop over the owner's own browsers
 * still ends.
 */
export const MAX_PIN_MAILS_PER_ACCOUNT = 3 * MAX_PIN_MAILS;
export const MAX_SMS_PER_ACCOUNT = 3 * MAX_SMS;

/** Whose budget a send spends: a known browser's own, else the account's strangers' (see {@link codeDelivery}). */
function budgetKey(base: string, device: string | undefined): string {
  return device ? `${base}:device:${device}` : base;
}

/**
 * Codes that go out (ADR 0008): the SMS code of a sign-in or of a phone being set up, and the mailed PIN with the
 * digits to type; each bound to one pending sign-in or set-up (S18) and limited per user (SMS cost money).
 *
 * The send budgets are kept like the attempt counters (S7, issue 48, ADR 0043): a browser where the account
 * completed a sign-in with its second factor (`device`, the signed cookie the 2FA counters know it by) has its own
 * {@link MAX_PIN_MAILS} mails and {@link MAX_SMS} texts per {@link SEND_WINDOW_MS}; every other browser spends the
 * account's strangers' budget of the same size. So a password holder's pending sign-ins use up only the strangers'
 * budget, and the owner in a known browser still gets a code. Above both, every send of the account counts against
 * {@link MAX_PIN_MAILS_PER_ACCOUNT} / {@link MAX_SMS_PER_ACCOUNT}. Windows are fixed: a refused request never
 * lengthens one.
 */
export function codeDelivery(ctx: TwoFactorContext) {
  const { store, kv, clock, mailer, sms, delivered, issuerFor } = ctx;

  /**
   * Whether one more mail or text may go out (kept in the shared store): the asking browser's budget (its own when
   * `device` is a known one, else the strangers'), then the account's ceiling. A refusal of the first spends nothing
   * of the second.
   */
  async function underSendLimit(
    base: string,
    max: number,
    ceiling: number,
    device: string | undefined,
  ): Promise<boolean> {
    if ((await kv.increment(budgetKey(base, device), SEND_WINDOW_MS, 'fixed')) > max) return false;
    return (await kv.increment(`${base}:all`, SEND_WINDOW_MS, 'fixed')) <= ceiling;
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
    device?: string,
  ): Promise<boolean> {
    if (!user.email) return false;
    const key = keys.pin(binding);
    const live = await delivered.read(key);
    if (!forced && live?.userId === user.id && live.expiresAt > clock.now()) return true;
    if (!(await underSendLimit(keys.pinMails(user.id), MAX_PIN_MAILS, MAX_PIN_MAILS_PER_ACCOUNT, device)))
      return false;
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
    device: string | undefined,
  ): Promise<SendOutcome> {
    const now = clock.now();
    const live = await delivered.read(key);
    const same = live?.userId === user.id && live.phone === phone && live.expiresAt > now;
    if (same && live.nextSendAt !== undefined && now < live.nextSendAt)
      return {
        sent: false,
        maskedPhone: maskPhone(phone),
        retryAfterSeconds: waitSeconds({ ms: live.nextSendAt - now }),
      };
    if (!(await underSendLimit(keys.texts(user.id), MAX_SMS, MAX_SMS_PER_ACCOUNT, device)))
      return 'throttled';
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

  return {
    /**
     * `SendOTP`: a new code texted to the account's verified phone, for this pending sign-in; `device` when the
     * browser is a known second-factor device of the account (its own budget).
     */
    async sendSignInSms(
      user: User,
      binding: CodeBinding,
      locale: string | undefined,
      device?: string,
    ): Promise<SendOutcome> {
      const factor = await store.secondFactors.find(user.id);
      if (!factor?.enabled || !factor.smsPhone) return 'failed';
      return textCode(user, keys.sms(binding), factor.smsPhone, locale, device);
    },

    /** `GeneratePhoneVerification`: a code texted to the phone being set up, for this set-up. */
    sendPhoneVerification(
      user: User,
      binding: CodeBinding,
      phone: string,
      locale: string | undefined,
      device?: string,
    ): Promise<SendOutcome> {
      return textCode(user, keys.phone(binding), phone, locale, device);
    },

    /** `GeneratePin`: mails a PIN for this pending sign-in or set-up (see {@link mailPin}; `device` as above). */
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
  };
}
