import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { returnUrlOf } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { Alert, Card, Page, Stack } from 'shared-contracts/ui';
import { RecoveryCodeList } from './recovery-code-list';
import { useRecoveryCodeSet } from './use-recovery-code-set';

/**
 * `/account/redeem-recoverycodes?id=`: a freshly generated set of recovery codes, shown once (the id is single-use
 * and expires), then on to the returnUrl.
 */
export function RedeemRecoveryCodesPage() {
  const { t } = useTranslation('mfe-mfa');
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  const id = search.get('id') ?? undefined;
  const { data, error, isLoading } = useRecoveryCodeSet(id);
  const errors = useFormErrors(error);
  return (
    <Page title={t('routes.redeemRecoveryCodes')} pageId="redeem-recoverycodes">
      <Card>
        <Stack>
          {!id ? <Alert kind="error">{t('errors:recoveryCodesUnavailable')}</Alert> : null}
          {errors.form.length > 0 ? (
            <Alert kind="error">
              {errors.form.map((message) => (
                <div key={message}>{message}</div>
              ))}
            </Alert>
          ) : null}
          {isLoading ? <p role="status">{t('common.loading')}</p> : null}
          {data ? <RecoveryCodeList codes={data.codes} /> : null}
          <Link
            className="hr-button hr-button--primary"
            to={`/redirect?returnUrl=${encodeURIComponent(returnUrl)}`}
          >
            {t('common.continue')}
          </Link>
        </Stack>
      </Card>
    </Page>
  );
}
