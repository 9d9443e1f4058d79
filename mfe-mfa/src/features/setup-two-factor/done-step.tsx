import { useTranslation } from 'react-i18next';
import type { TwoFactorMethod } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { Alert, Button, FormErrors, Stack } from 'shared-contracts/ui';
import { useEnableTwoFactorMutation } from './setup-two-factor.api';

/** Step 4: the factor is on; finishing asks the server where to go (a 209). */
export function DoneStep({ returnUrl, method }: { returnUrl: string; method: TwoFactorMethod }) {
  const { t } = useTranslation('mfe-mfa');
  const [enable, { isLoading, error }] = useEnableTwoFactorMutation();
  const errors = useFormErrors(error);
  return (
    <Stack>
      <Alert kind="success">{t('setup.done.message')}</Alert>
      <p>{t(`setup.done.intro.${method}`)}</p>
      <FormErrors messages={errors.form} />
      {/* The server finishes the sign-in (or returns to the account) and answers where to go: a 209. */}
      <Button loading={isLoading} onClick={() => void enable({ returnUrl })}>
        {t('setup.done.finish')}
      </Button>
    </Stack>
  );
}
