import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CodeSent, PinReference } from 'shared-contracts';
import { useGeneratePinMutation, usePinReferenceMutation, useSendOtpMutation } from './delivered-codes.api';

/** Seconds left until `until` (a Date.now() time), ticking down once a second; 0 when past. */
export function useSecondsUntil(until: number | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === undefined) return undefined;
    // The first tick reads the clock at once: `now` may be older than `until` even when the wait is already over
    // (a wait of 0 s), and the count must not stick at 1.
    let timer: number | undefined;
    const tick = () => {
      const at = Date.now();
      setNow(at);
      if (at < until) timer = window.setTimeout(tick, Math.min(1000, until - at));
    };
    timer = window.setTimeout(tick, 0);
    return () => window.clearTimeout(timer);
  }, [until]);
  return until === undefined ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}

/** When the server allows the next text, from an answer of SendOTP or GeneratePhoneVerification. */
export function nextSendAt(answer: CodeSent): number {
  return Date.now() + answer.retryAfterSeconds * 1000;
}

/**
 * The SMS code of a sign-in: nothing goes out until the visitor asks (`send`, the page's "Send code"); after that
 * `sent` holds the answer and `send` asks again once the server's (growing) wait is over. A `sent: false` answer
 * (the wait of an earlier text still runs) keeps that earlier code in use.
 */
export function useSmsCode() {
  const [send, state] = useSendOtpMutation();
  const [sent, setSent] = useState<CodeSent | undefined>(undefined);
  const [until, setUntil] = useState<number | undefined>(undefined);
  const secondsLeft = useSecondsUntil(until);
  const request = useCallback(async () => {
    const result = await send();
    if (result.data) {
      if (result.data.sent || !sent) setSent(result.data);
      setUntil(nextSendAt(result.data));
    }
  }, [send, sent]);
  return { sent, secondsLeft, send: request, isSending: state.isLoading, error: state.error };
}

/**
 * The emailed PIN of a sign-in or set-up: mailed once `active` turns true (the visitor's explicit "send", never the
 * page opening), then the positions to type;
 * `reshuffle` asks for other positions of the same PIN, `resend` mails a new PIN (the old one dies).
 */
export function usePinChallenge(active: boolean) {
  const [generate, generated] = useGeneratePinMutation();
  const [reference, referenced] = usePinReferenceMutation();
  const [pin, setPin] = useState<PinReference | undefined>(undefined);
  const [mailed, setMailed] = useState<boolean | undefined>(undefined);
  const [resent, setResent] = useState(false);

  const ask = useCallback(async () => {
    const result = await reference();
    if ('data' in result) setPin(result.data ?? null);
  }, [reference]);

  const mail = useCallback(
    async (forced: boolean) => {
      const result = await generate({ forced });
      const ok = result.data === true;
      setMailed(ok);
      setResent(forced && ok);
      if (ok) await ask();
    },
    [generate, ask],
  );

  const [asked, setAsked] = useState(false);
  useEffect(() => {
    if (active && !asked) {
      setAsked(true);
      void mail(false);
    }
  }, [active, asked, mail]);

  return {
    pin,
    mailed,
    resent,
    reshuffle: () => {
      setResent(false);
      return ask();
    },
    resend: () => mail(true),
    isBusy: generated.isLoading || referenced.isLoading,
    error: generated.error ?? referenced.error,
  };
}

/** "2, 5 and 7" in the page's language. */
export function usePositionsText(positions: readonly number[] | undefined): string {
  const { i18n } = useTranslation();
  if (!positions) return '';
  try {
    return new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(positions.map(String));
  } catch {
    return positions.join(', ');
  }
}
