import { PIN_LENGTH, SMS_CODE_LENGTH, type PinReference } from 'shared-contracts';
import { renderMail } from '../../infra/mail/templates.js';
import { renderSmsCode } from '../../infra/sms/sms-texts.js';
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
 * Codes that go out (ADR 0008): the SMS code of a sign-in or of a phone being set up, and the mailed PIN with the
 * digits to type; each bound to one pending sign-in or set-up (S18) and limited per user (SMS cost money).
 */
export function codeDelivery(ctx: TwoFactorContext) {
  const { store, kv, clock, mailer, sms, delivered, issuerFor } = ctx;

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

  return {
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
  };
}
