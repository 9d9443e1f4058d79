import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { returnUrlOf, withReturnUrl } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { Alert, Button, Card, Page, Stack } from 'shared-contracts/ui';
import { RecoveryCodeList } from '../shared/recovery-code-list';
import { useRedeemRecoveryCodeMutation } from '../shared/recovery-codes.api';
import { useRecoveryCodeSet } from '../shared/use-recovery-code-set';

/**
 * `/account/redeem-recoverycodes?id=`: a freshly generated set of recovery codes, shown once (the id is single-use
 * and expires), then on to the returnUrl. Without an id, a signed-in account with a second factor makes a new set
 * on demand (it replaces the old one; S21 asks for a recent full sign-in).
 */
export function RedeemRecoveryCodesPage() {
  const { t } = useTranslation('mfe-mfa');
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  const id = search.get('id') ?? undefined;
  const shown = useRecoveryCodeSet(id);
  const [regenerate, regenerated] = useRedeemRecoveryCodeMutation();
  const { data, error, isLoading } = id ? shown : regenerated;
  const errors = useFormErrors(error);
  const reauthenticate = errors.form.length > 0 && !id && regenerated.isError;
  return (
    <Page title={t('routes.redeemRecoveryCodes')} pageId="redeem-recoverycodes">
      <Card>
        <Stack>
          {!id && !data ? (
            <>
              <p>{t('codes.regenerateIntro')}</p>
              <Button loading={regenerated.isLoading} onClick={() => void regenerate({})}>
                {t('codes.regenerate')}
              </Button>
            </>
          ) : null}
          {errors.form.length > 0 ? (
            <Alert kind="error">
              {errors.form.map((message) => (
                <div key={message}>{message}</div>
              ))}
              {reauthenticate ? (
                <div>
                  <Link to={withReturnUrl('/account/login', '/account/redeem-recoverycodes')}>
                    {t('setup.signInAgain')}
                  </Link>
                </div>
              ) : null}
            </Alert>
          ) : null}
          {isLoading ? <p role="status">{t('common.loading')}</p> : null}
          {data ? <RecoveryCodeList codes={data.codes} /> : null}
          <Link className="hr-button hr-button--primary" to={withReturnUrl('/redirect', returnUrl)}>
            {t('common.continue')}
          </Link>
        </Stack>
      </Card>
    </Page>
  );
}
