import type { CaptchaSettings } from '../../store/captcha-settings.repository.js';
import { CAPTCHA_PROVIDER_NAMES, CAPTCHA_WHEN } from '../../store/captcha-settings.repository.js';
import type { OptionValues } from '../admin-command.js';
import { UsageError } from '../cli-support.js';

/** The captcha options of `partners update` (ADR 0014); each changes only its own value. */
export const captchaOptions = {
  captcha: { type: 'string', value: CAPTCHA_PROVIDER_NAMES.join('|') },
  'captcha-site-key': { type: 'string', value: 'KEY' },
  'captcha-secret': { type: 'string', value: 'SECRET' },
  'captcha-min-score': { type: 'string', value: '0.5' },
  'captcha-when': { type: 'string', value: CAPTCHA_WHEN.join('|') },
} as const;

/** The lines `partners update` prints about its captcha options. */
export const captchaSummary = [
  'captcha: altcha (self-hosted proof-of-work, the default) needs no keys; recaptcha-v2|v3 need',
  '  --captcha-site-key and --captcha-secret; --captcha-when risk (default) asks after failed attempts',
];

function oneOf<T extends string>(text: string, allowed: readonly T[], option: string): T {
  if (!(allowed as readonly string[]).includes(text))
    throw new UsageError(`--${option} must be one of ${allowed.join(', ')}, not "${text}"`);
  return text as T;
}

/**
 * The captcha settings the options change, checked against what is stored: a reCAPTCHA provider must end up with
 * a site key and a secret. Undefined when no captcha option was given.
 */
export function changedCaptchaSettings(
  current: CaptchaSettings,
  values: OptionValues<typeof captchaOptions>,
): Partial<Omit<CaptchaSettings, 'partnerId'>> | undefined {
  const changes: Partial<Omit<CaptchaSettings, 'partnerId'>> = {};
  if (values.captcha !== undefined)
    changes.provider = oneOf(values.captcha, CAPTCHA_PROVIDER_NAMES, 'captcha');
  if (values['captcha-when'] !== undefined)
    changes.when = oneOf(values['captcha-when'], CAPTCHA_WHEN, 'captcha-when');
  const siteKey = values['captcha-site-key'];
  if (siteKey !== undefined) {
    if (!/^[\w-]{1,200}$/.test(siteKey))
      throw new UsageError('--captcha-site-key must be letters, digits, - and _ (as Google issues them)');
    changes.siteKey = siteKey;
  }
  const secret = values['captcha-secret'];
  if (secret !== undefined) {
    if (!/^[\x21-\x7e]{1,500}$/.test(secret))
      throw new UsageError('--captcha-secret must be printable ASCII');
    changes.secret = secret;
  }
  const score = values['captcha-min-score'];
  if (score !== undefined) {
    const value = /^(0(\.\d+)?|1(\.0+)?)$/.test(score.trim()) ? Number(score) : NaN;
    if (Number.isNaN(value))
      throw new UsageError(`--captcha-min-score must be from 0.0 to 1.0, not "${score}"`);
    changes.minScore = value;
  }
  if (Object.keys(changes).length === 0) return undefined;
  const next = { ...current, ...changes };
  if (next.provider.startsWith('recaptcha') && (!next.siteKey || !next.secret))
    throw new UsageError(`--captcha ${next.provider} needs --captcha-site-key and --captcha-secret`);
  return changes;
}

/** One line saying what the partner's captcha is now (never the secret). */
export function describeCaptcha(settings: CaptchaSettings): string {
  const parts = [`captcha ${settings.provider}`, `when ${settings.when}`];
  if (settings.provider.startsWith('recaptcha')) parts.push(`site key ${settings.siteKey ?? '-'}`);
  if (settings.provider === 'recaptcha-v3') parts.push(`min score ${settings.minScore}`);
  return parts.join(', ');
}
