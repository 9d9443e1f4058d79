import { useTranslation } from 'react-i18next';
import { Button, Stack } from 'shared-contracts/ui';

/** Props of {@link ResendCode}. */
export interface ResendCodeProps {
  /** The link's words ("Send a new code", "Email me a new PIN"). */
  label: string;
  /** Seconds of the server's wait before another code may go out; the link waits with a polite note. */
  secondsLeft?: number;
  busy: boolean;
  onResend: () => void;
}

/**
 * The quiet way to ask for another code, under the code field once one went out: a link-style button that does not
 * compete with Verify, held back (with the seconds left) while the server's cool-down runs.
 */
export function ResendCode({ label, secondsLeft = 0, busy, onResend }: ResendCodeProps) {
  const { t } = useTranslation('mfe-mfa');
  return (
    <p className="hr-fine-print">
      <Button variant="link" disabled={busy || secondsLeft > 0} onClick={onResend}>
        {label}
      </Button>
      {secondsLeft > 0 ? (
        <span style={{ marginInlineStart: '0.5rem' }}>
          {t('login2fa.sms.wait', { seconds: secondsLeft })}
        </span>
      ) : null}
    </p>
  );
}

/** Where the SMS code went, read out when it changes. */
export function SmsSentStatus({
  maskedPhone,
  sent,
}: {
  maskedPhone: string | null;
  sent: boolean | undefined;
}) {
  const { t } = useTranslation('mfe-mfa');
  return (
    <p role="status" aria-live="polite">
      {maskedPhone && sent === true ? t('login2fa.sms.sentTo', { phone: maskedPhone }) : null}
      {maskedPhone && sent === false ? t('login2fa.sms.alreadySent', { phone: maskedPhone }) : null}
    </p>
  );
}

/** Where the SMS code went and the quiet resend link, held back while the server's wait runs. */
export function SmsStatus({
  maskedPhone,
  sent,
  secondsLeft,
  busy,
  onResend,
}: {
  maskedPhone: string | null;
  sent: boolean;
  secondsLeft: number;
  busy: boolean;
  onResend: () => void;
}) {
  const { t } = useTranslation('mfe-mfa');
  return (
    <Stack>
      <SmsSentStatus maskedPhone={maskedPhone} sent={sent || undefined} />
      <ResendCode
        label={t('login2fa.sms.resend')}
        secondsLeft={secondsLeft}
        busy={busy}
        onResend={onResend}
      />
    </Stack>
  );
}
