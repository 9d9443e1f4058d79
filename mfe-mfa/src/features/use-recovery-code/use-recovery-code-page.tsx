import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { returnUrlOf, withReturnUrl } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { Button, Card, FormErrors, Page, Stack, TextField } from 'shared-contracts/ui';
import { useLoginWithRecoveryCodeMutation, useLoginWithRecoveryCodeViewQuery } from './use-recovery-code.api';

/** `/account/login/recoverycode`: the second step with one of the account's one-time recovery codes. */
export function UseRecoveryCodePage() {
  const { t } = useTranslation('mfe-mfa');
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  // Asked so a browser that is not at the 2FA step is sent back to the sign-in page at once.
  const view = useLoginWithRecoveryCodeViewQuery();
  const [recoveryCode, setRecoveryCode] = useState('');
  const [signIn, { isLoading, error }] = useLoginWithRecoveryCodeMutation();
  const errors = useFormErrors(error ?? view.error);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    await signIn({ recoveryCode });
  };

  return (
    <Page title={t('routes.loginRecoveryCode')} pageId="login-recoverycode">
      <Card>
        <form method="post" onSubmit={(event) => void onSubmit(event)} noValidate>
          <Stack>
            <p>{t('recovery.intro')}</p>
            <FormErrors messages={errors.form} />
            <TextField
              label={t('recovery.label')}
              name="recoveryCode"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              value={recoveryCode}
              onChange={(event) => setRecoveryCode(event.target.value)}
              errors={errors.field('recoveryCode')}
              hint={t('recovery.hint', { length: view.data?.codeLength ?? 12 })}
              required
              autoFocus
            />
            <Button type="submit" loading={isLoading}>
              {isLoading ? t('login2fa.verifying') : t('recovery.submit')}
            </Button>
            <Link to={withReturnUrl('/account/login/twofactor', returnUrl)}>
              {t('recovery.useOtherMethod')}
            </Link>
            <Link to={withReturnUrl('/account/login', returnUrl)}>{t('common.backToSignIn')}</Link>
          </Stack>
        </form>
      </Card>
    </Page>
  );
}
