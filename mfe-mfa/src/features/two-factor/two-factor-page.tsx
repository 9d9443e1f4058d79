import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { returnUrlOf } from 'shared-contracts';
import { Card, Page, Stack } from 'shared-contracts/ui';

/**
 * `/account/login/twofactor`: its title, its purpose and a way back to sign-in (its flow is not built yet); the
 * server's state machine decides when a visitor is sent here.
 */
export function TwoFactorLoginPage() {
  const { t } = useTranslation('mfe-mfa');
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  return (
    <Page title={t('routes.loginTwoFactor')} pageId="login-twofactor">
      <Card>
        <Stack>
          <p>{t('pages.loginTwoFactor')}</p>
          <Link to={`/account/login?returnUrl=${encodeURIComponent(returnUrl)}`}>
            {t('common.backToSignIn')}
          </Link>
        </Stack>
      </Card>
    </Page>
  );
}
