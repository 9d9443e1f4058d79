import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Setup2faView } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { Button, FormErrors, Stack } from 'shared-contracts/ui';
import { CodeField } from '../shared/code-field';
import { useValidate2faSetupCodeMutation } from './setup-two-factor.api';
import type { MethodSetupStepProps } from './method-setup-step';

/**
 * Step 2, authenticator: the QR code and the key to type, then the first code to confirm. `replace`: the person
 * confirmed replacing the app set up before; the server replaces it only when told so (ADR 0050).
 */
export function AuthenticatorSetup({
  view,
  onBack,
  onConfirmed,
  actions,
  replace = false,
}: MethodSetupStepProps & { view: Setup2faView; replace?: boolean }) {
  const { t } = useTranslation('mfe-mfa');
  const [code, setCode] = useState('');
  const [validate, { isLoading, error }] = useValidate2faSetupCodeMutation();
  const errors = useFormErrors(error);
  const { authenticator } = view;
  // The server renders the QR code; as an image it cannot run anything, whatever the SVG held (CSP allows data:).
  const qrSource = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(authenticator.qrSvg)}`;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = await validate({ method: 'authenticator', code, ...(replace ? { replace } : {}) });
    if ('data' in result && result.data) onConfirmed(result.data.recoveryCodesId);
  };

  return (
    <form method="post" onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack>
        <p>{t('setup.authenticator.scan')}</p>
        <img
          src={qrSource}
          alt={t('setup.authenticator.qrAlt')}
          width={200}
          height={200}
          style={{ background: '#fff', padding: '0.5rem', borderRadius: '0.5rem', alignSelf: 'center' }}
        />
        <p>{t('setup.authenticator.manual')}</p>
        <dl style={{ margin: 0 }}>
          <dt>{t('setup.authenticator.keyLabel')}</dt>
          <dd
            data-testid="totp-secret"
            translate="no"
            style={{
              fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
              fontSize: '1.1rem',
              margin: 0,
            }}
          >
            {authenticator.secret}
          </dd>
          <dt>{t('setup.authenticator.accountLabel')}</dt>
          <dd style={{ margin: 0 }}>
            {authenticator.issuer} ({authenticator.accountName})
          </dd>
        </dl>
        <FormErrors messages={errors.form} />
        <CodeField
          label={t('setup.authenticator.codeLabel')}
          value={code}
          onChange={setCode}
          errors={errors.field('code')}
        />
        <div style={{ display: 'flex', gap: '0.75rem', flexWrap: 'wrap' }}>
          <Button type="submit" loading={isLoading}>
            {t('setup.authenticator.confirm')}
          </Button>
          <Button variant="secondary" onClick={onBack}>
            {t('setup.back')}
          </Button>
          {actions}
        </div>
      </Stack>
    </form>
  );
}
