import { useTranslation } from 'react-i18next';
import { Button, Stack } from 'shared-contracts/ui';

/** Where the SMS code went and the resend button, held back while the server's wait runs. */
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
      <p role="status" aria-live="polite">
        {sent && maskedPhone ? t('login2fa.sms.sentTo', { phone: maskedPhone }) : null}
      </p>
      <Button variant="secondary" disabled={busy || secondsLeft > 0} onClick={onResend}>
        {t('login2fa.sms.resend')}
      </Button>
      {secondsLeft > 0 ? (
        <p className="hr-fine-print">{t('login2fa.sms.wait', { seconds: secondsLeft })}</p>
      ) : null}
    </Stack>
  );
}
