import {
  DEFAULT_LOCALE,
  matchSupportedLocale,
  partnerDisplayName,
  type SupportedLocale,
} from 'shared-contracts';

/** What an SMS with a code says. */
export interface SmsCodeParams {
  /** The partner whose sign-in sent it. */
  partnerName: string;
  code: string;
  expiresInMinutes: number;
}

// One short line per locale (an SMS is 160 characters): who sent it, the code, how long it lasts, and not to share it.
const TEXTS: Record<SupportedLocale, (p: { partner: string; code: string; minutes: number }) => string> = {
  'en-GB': (p) =>
    `${p.code} is your ${p.partner} sign-in code. It expires in ${p.minutes} minutes. Don’t share it with anyone.`,
  en: (p) =>
    `${p.code} is your ${p.partner} sign-in code. It expires in ${p.minutes} minutes. Don’t share it with anyone.`,
  de: (p) =>
    `${p.code} ist Ihr Anmeldecode für ${p.partner}. Er läuft in ${p.minutes} Minuten ab. Geben Sie ihn niemandem weiter.`,
  'fr-CA': (p) =>
    `${p.code} est votre code de connexion ${p.partner}. Il expire dans ${p.minutes} minutes. Ne le communiquez à personne.`,
  es: (p) =>
    `${p.code} es su código de acceso a ${p.partner}. Caduca en ${p.minutes} minutos. No lo comparta con nadie.`,
};

/** The text of an SMS carrying a sign-in or verification code, in the asked locale (its language, else en-GB). */
export function renderSmsCode(locale: string | undefined, params: SmsCodeParams): string {
  const used = matchSupportedLocale(locale) ?? DEFAULT_LOCALE;
  return TEXTS[used]({
    partner: partnerDisplayName(params.partnerName),
    code: params.code,
    minutes: params.expiresInMinutes,
  });
}
