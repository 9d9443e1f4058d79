import { useTranslation } from 'react-i18next';
import type { TwoFactorMethod } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { Alert, Button, FormErrors, Stack } from 'shared-contracts/ui';
import { useEnableTwoFactorMutation } from './setup-two-factor.api';

/**
 * The last step: the factor is on; finishing asks the server where to go (a 209). `outcome` says what the wizard
 * did: the account's first method (it is the default from now on), a method added beside the others, or the
 * authenticator app replaced (then the default and the recovery codes are unchanged, ADR 0050).
 */
export function DoneStep({
  returnUrl,
  method,
  outcome,
}: {
  returnUrl: string;
  method: TwoFactorMethod;
  outcome: 'first' | 'added' | 'replaced';
}) {
  const { t } = useTranslation('mfe-mfa');
  const [enable, { isLoading, error }] = useEnableTwoFactorMutation();
  const errors = useFormErrors(error);
  return (
    <Stack>
      <Alert kind="success">
        {outcome === 'first'
          ? t('setup.done.message')
          : outcome === 'added'
            ? t('setup.done.added', { method: t(`methods.${method}`) })
            : t('setup.done.replaced')}
      </Alert>
      <p>{outcome === 'first' ? t(`setup.done.intro.${method}`) : t('setup.done.kept')}</p>
      <FormErrors messages={errors.form} />
      {/* The server finishes the sign-in (or returns to the account) and answers where to go: a 209. */}
      <Button loading={isLoading} onClick={() => void enable({ returnUrl })}>
        {t('setup.done.finish')}
      </Button>
    </Stack>
  );
}
