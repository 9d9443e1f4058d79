import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CaptchaAction } from 'shared-contracts';
import type { SolvedHandler } from './solved-handler.js';

const SCRIPT_ORIGIN = 'https://www.google.com/recaptcha/api.js';

interface Grecaptcha {
  ready(callback: () => void): void;
  render(container: HTMLElement, options: Record<string, unknown>): number;
  reset(id?: number): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  var grecaptcha: Grecaptcha | undefined;
}

let loading: Promise<Grecaptcha> | undefined;

/**
 * Loads Google's script once. The CSP of a partner using reCAPTCHA allows its origins (gateway, ADR 0014); for
 * everyone else this code never runs.
 */
function loadRecaptcha(render: string, language: string): Promise<Grecaptcha> {
  loading ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `${SCRIPT_ORIGIN}?render=${encodeURIComponent(render)}&hl=${encodeURIComponent(language)}`;
    script.async = true;
    script.onerror = () => {
      loading = undefined;
      reject(new Error('reCAPTCHA did not load'));
    };
    script.onload = () => {
      const api = globalThis.grecaptcha;
      if (api) api.ready(() => resolve(api));
      else reject(new Error('reCAPTCHA did not load'));
    };
    document.head.append(script);
  });
  return loading;
}

/** Props of {@link RecaptchaChallenge}. */
export interface RecaptchaChallengeProps {
  version: 2 | 3;
  siteKey: string;
  action: CaptchaAction;
  attempt: number;
  onSolved: SolvedHandler;
}

/**
 * reCAPTCHA: v2 renders Google's checkbox; v3 asks for a score token for the action without any interaction (its
 * badge is hidden, as Google's terms allow while the page shows the notice with its privacy and terms links).
 */
export function RecaptchaChallenge({ version, siteKey, action, attempt, onSolved }: RecaptchaChallengeProps) {
  const { t, i18n } = useTranslation('common');
  const host = useRef<HTMLDivElement>(null);
  const [unavailable, setUnavailable] = useState(false);

  useEffect(() => {
    let cancelled = false;
    loadRecaptcha(version === 2 ? 'explicit' : siteKey, i18n.language)
      .then(async (api) => {
        if (cancelled) return;
        if (version === 3) {
          const token = await api.execute(siteKey, { action });
          if (!cancelled) onSolved(3, token);
          return;
        }
        const container = host.current;
        if (!container) return;
        const slot = document.createElement('div');
        container.replaceChildren(slot);
        api.render(slot, { sitekey: siteKey, callback: (token: string) => onSolved(2, token) });
      })
      .catch(() => {
        if (!cancelled) setUnavailable(true);
      });
    return () => {
      cancelled = true;
    };
  }, [version, siteKey, action, attempt, onSolved, i18n.language]);

  if (unavailable) return <p role="alert">{t('captcha.error')}</p>;
  return version === 2 ? (
    <div ref={host} className="hr-captcha-widget" />
  ) : (
    <p role="status">{t('captcha.verifying')}</p>
  );
}
