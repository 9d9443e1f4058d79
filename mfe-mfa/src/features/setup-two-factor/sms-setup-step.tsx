import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CodeSent } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { Button, FormErrors, Stack, TextField } from 'shared-contracts/ui';
import { CodeField } from '../shared/code-field';
import { nextSendAt, useSecondsUntil } from '../shared/delivered-codes';
import { SmsStatus } from '../shared/sms-status';
import {
  useGeneratePhoneVerificationMutation,
  useValidate2faSetupCodeMutation,
} from './setup-two-factor.api';
import type { MethodSetupStepProps } from './method-setup-step';

/** SMS: the phone number (international), a texted code to prove it, then the code typed back. */
export function SmsSetup({ onBack, onConfirmed, actions }: MethodSetupStepProps) {
  const { t } = useTranslation('mfe-mfa');
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState<CodeSent | undefined>(undefined);
  const [until, setUntil] = useState<number | undefined>(undefined);
  const secondsLeft = useSecondsUntil(until);
  const [sendCode, sending] = useGeneratePhoneVerificationMutation();
  const [validate, validating] = useValidate2faSetupCodeMutation();
  const sendErrors = useFormErrors(sending.error);
  const errors = useFormErrors(validating.error);

  const onSend = async (event?: FormEvent<HTMLFormElement>) => {
    event?.preventDefault();
    const result = await sendCode({ phone });
    if (result.data) {
      if (result.data.sent || !sent) setSent(result.data);
      setUntil(nextSendAt(result.data));
    }
  };
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = await validate({ method: 'sms', code });
    if ('data' in result && result.data) onConfirmed(result.data.recoveryCodesId);
  };

  return (
    <Stack>
      <form method="post" onSubmit={(event) => void onSend(event)} noValidate>
        <Stack>
          <p>{t('setup.sms.intro')}</p>
          <FormErrors messages={sendErrors.form} />
          <TextField
            label={t('setup.sms.phoneLabel')}
            name="phone"
            type="tel"
            autoComplete="tel"
            value={phone}
            onChange={(event) => setPhone(event.target.value)}
            errors={sendErrors.field('phone')}
            hint={t('setup.sms.phoneHint')}
            required
          />
          {sent ? null : (
            <Button type="submit" loading={sending.isLoading}>
              {t('setup.sms.send')}
            </Button>
          )}
        </Stack>
      </form>
      {sent ? (
        <form method="post" onSubmit={(event) => void onSubmit(event)} noValidate>
          <Stack>
            <SmsStatus
              maskedPhone={sent.maskedPhone}
              sent={sent.sent}
              secondsLeft={secondsLeft}
              busy={sending.isLoading}
              onResend={() => void onSend()}
            />
            <FormErrors messages={errors.form} />
            <CodeField
              label={t('setup.sms.codeLabel')}
              value={code}
              onChange={setCode}
              errors={errors.field('code')}
            />
            <Button type="submit" loading={validating.isLoading}>
              {t('setup.authenticator.confirm')}
            </Button>
          </Stack>
        </form>
      ) : null}
      <div style={{ display: 'flex', gap: '0.75rem', flexWrap: 'wrap' }}>
        <Button variant="secondary" onClick={onBack}>
          {t('setup.back')}
        </Button>
        {actions}
      </div>
    </Stack>
  );
}
