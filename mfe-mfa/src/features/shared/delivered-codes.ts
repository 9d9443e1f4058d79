import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CodeSent, PinReference } from 'shared-contracts';
import { useGeneratePinMutation, usePinReferenceMutation, useSendOtpMutation } from './delivered-codes.api';

/** Seconds left until `until` (a Date.now() time), ticking down once a second; 0 when past. */
export function useSecondsUntil(until: number | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === undefined || until <= Date.now()) return undefined;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [until]);
  return until === undefined ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}

/** When the server allows the next text, from an answer of SendOTP or GeneratePhoneVerification. */
export function nextSendAt(answer: CodeSent): number {
  return Date.now() + answer.retryAfterSeconds * 1000;
}

/**
 * The SMS code of a sign-in: texted once when the method is chosen, then again on request after the server's
 * (growing) wait.
 */
export function useSmsCode(active: boolean) {
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
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    if (active && !asked) {
      setAsked(true);
      void request();
    }
  }, [active, asked, request]);
  return { sent, secondsLeft, resend: request, isSending: state.isLoading, error: state.error };
}

/**
 * The e-mailed PIN of a sign-in or set-up: mailed once when the method is chosen, then the positions to type;
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
