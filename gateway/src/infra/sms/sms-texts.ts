import { partnerDisplayName } from 'shared-contracts';
import { interpolate, messageTextsFor } from '../mail/message-texts.js';

/** What an SMS with a code says. */
export interface SmsCodeParams {
  /** The partner whose sign-in sent it. */
  partnerName: string;
  code: string;
  expiresInMinutes: number;
}

/**
 * The text of an SMS carrying a sign-in or verification code, in the asked locale (its language, else en-GB): one
 * short line (an SMS is 160 characters) — who sent it, the code, how long it lasts, and not to share it. The words
 * are `sms.code` in the gateway's message locale files (`infra/mail/locales`, ADR 0054), beside the mails'.
 */
export function renderSmsCode(locale: string | undefined, params: SmsCodeParams): string {
  const { texts } = messageTextsFor(locale);
  return interpolate(texts.sms.code, {
    partner: partnerDisplayName(params.partnerName),
    code: params.code,
    minutes: params.expiresInMinutes,
  });
}
