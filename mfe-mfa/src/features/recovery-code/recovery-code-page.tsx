import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { returnUrlOf } from 'shared-contracts';
import { Card, Page, Stack } from 'shared-contracts/ui';

/**
 * `/account/login/recoverycode`: its title, its purpose and a way back to sign-in (its flow is not built yet); the
 * server's state machine decides when a visitor is sent here.
 */
export function RecoveryCodeLoginPage() {
  const { t } = useTranslation('mfe-mfa');
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  return (
    <Page title={t('routes.loginRecoveryCode')} pageId="login-recoverycode">
      <Card>
        <Stack>
          <p>{t('pages.loginRecoveryCode')}</p>
          <Link to={`/account/login?returnUrl=${encodeURIComponent(returnUrl)}`}>
            {t('common.backToSignIn')}
          </Link>
        </Stack>
      </Card>
    </Page>
  );
}
