import 'altcha/external';
import 'altcha/altcha.css';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { CaptchaAction } from 'shared-contracts';
import { useCaptchaChallengeQuery } from 'shared-contracts/api';
import type { SolvedHandler } from './solved-handler.js';

// The external build (no inlined workers or styles: a strict CSP refuses blob: workers and inserted <style>). Its
// proof-of-work worker is a file of our own origin (worker-src 'self'), emitted by the bundler from this URL.
const SHA_WORKER = new URL('../../../node_modules/altcha/dist/workers/sha.js', import.meta.url);
globalThis.$altcha.algorithms.set('SHA-256', () => new Worker(SHA_WORKER));

/** The widget's texts in the page's language (the `common` namespace), over ALTCHA's English defaults. */
function useWidgetStrings(): string {
  const { t, i18n } = useTranslation('common');
  const language = `hr-${i18n.language}`;
  const registry = globalThis.$altcha.i18n;
  registry.set(language, {
    ...registry.get('en'),
    label: t('captcha.label'),
    verifying: t('captcha.verifying'),
    verified: t('captcha.verified'),
    error: t('captcha.error'),
    expired: t('captcha.expired'),
    loading: t('captcha.loading'),
    verificationRequired: t('captcha.intro'),
    waitAlert: t('captcha.verifying'),
  });
  return language;
}

/** Props of {@link AltchaChallenge}. */
export interface AltchaChallengeProps {
  action: CaptchaAction;
  /** A new value (after a refused token) fetches a new challenge and starts the widget again. */
  attempt: number;
  busy: boolean;
  onSolved: SolvedHandler;
}

/**
 * The self-hosted proof-of-work (version 1): a checkbox the person ticks (mouse, Space or Enter); the browser then
 * does the server's challenge in a worker and the payload goes to VerifyCaptcha.
 */
export function AltchaChallenge({ action, attempt, onSolved }: AltchaChallengeProps) {
  const language = useWidgetStrings();
  const { data: challenge } = useCaptchaChallengeQuery({ action, attempt });
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const container = host.current;
    if (!container || !challenge) return;
    const widget = document.createElement('altcha-widget');
    // Svelte's custom element exposes `configure()` only once mounted; the `configuration` attribute is read at
    // mount, so the challenge is there before the person can tick the box.
    widget.setAttribute(
      'configuration',
      JSON.stringify({ challenge, hideLogo: true, hideFooter: true, auto: 'off', language }),
    );
    widget.setAttribute('language', language);
    container.replaceChildren(widget);
    // The dialog opened before the challenge arrived: move focus to the box once the widget has drawn it, so
    // Space ticks it at once (keyboard users never hunt for it).
    const focusBox = () => {
      const box = widget.querySelector<HTMLInputElement>('input[type="checkbox"]');
      if (!box) return false;
      box.focus();
      return true;
    };
    const observer = new MutationObserver(() => {
      if (focusBox()) observer.disconnect();
    });
    if (!focusBox()) observer.observe(widget, { childList: true, subtree: true });
    const onVerified = (event: Event) => {
      const payload = (event as CustomEvent<{ payload?: string }>).detail?.payload;
      if (payload) onSolved(1, payload);
    };
    widget.addEventListener('verified', onVerified);
    return () => {
      observer.disconnect();
      widget.removeEventListener('verified', onVerified);
      widget.remove();
    };
  }, [challenge, language, onSolved]);

  return <div ref={host} className="hr-captcha-widget" data-testid="captcha-widget" />;
}
