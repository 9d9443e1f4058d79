import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Setup2faView } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { Alert, Button, FormErrors, Stack } from 'shared-contracts/ui';
import { CodeField } from '../shared/code-field';
import { usePinChallenge, usePositionsText } from '../shared/delivered-codes';
import { useValidate2faSetupCodeMutation } from './setup-two-factor.api';
import type { MethodSetupStepProps } from './method-setup-step';

/** PIN by e-mail: a PIN mailed to the account's address; typing the asked digits proves the address is read. */
export function PinSetup({
  view,
  onBack,
  onConfirmed,
  actions,
}: MethodSetupStepProps & { view: Setup2faView }) {
  const { t } = useTranslation('mfe-mfa');
  const [started, setStarted] = useState(false);
  const pin = usePinChallenge(started);
  const positions = usePositionsText(pin.pin?.positions);
  const [code, setCode] = useState('');
  const [validate, validating] = useValidate2faSetupCodeMutation();
  const errors = useFormErrors(validating.error ?? pin.error);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = await validate({ method: 'pin', code });
    if ('data' in result && result.data) onConfirmed(result.data.recoveryCodesId);
  };

  return (
    <form method="post" onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack>
        <p>{t('setup.pin.intro', { email: view.maskedEmail ?? '' })}</p>
        <FormErrors messages={errors.form} />
        {!started ? <Button onClick={() => setStarted(true)}>{t('setup.pin.send')}</Button> : null}
        <div role="status" aria-live="polite">
          {pin.mailed === true ? <p>{t('login2fa.pin.sentTo', { email: view.maskedEmail ?? '' })}</p> : null}
          {pin.mailed === false ? <Alert kind="error">{t('login2fa.pin.notSent')}</Alert> : null}
        </div>
        {pin.pin ? (
          <>
            <CodeField
              label={t('login2fa.pin.asked', { positions })}
              value={code}
              onChange={setCode}
              errors={errors.field('code')}
            />
            <Button type="submit" loading={validating.isLoading}>
              {t('setup.authenticator.confirm')}
            </Button>
            <Button variant="secondary" disabled={pin.isBusy} onClick={() => void pin.resend()}>
              {t('login2fa.pin.resend')}
            </Button>
          </>
        ) : null}
        <div style={{ display: 'flex', gap: '0.75rem', flexWrap: 'wrap' }}>
          <Button variant="secondary" onClick={onBack}>
            {t('setup.back')}
          </Button>
          {actions}
        </div>
      </Stack>
    </form>
  );
}
