import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { returnUrlOf } from 'shared-contracts';
import { Card, Page, Stack } from 'shared-contracts/ui';

/**
 * `/account/login/secure`: its title, its purpose and a way back to sign-in (its flow is not built yet); the
 * server's state machine decides when a visitor is sent here.
 */
export function SecureLoginPage() {
  const { t } = useTranslation('mfe-devices');
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  return (
    <Page title={t('routes.loginSecure')} pageId="login-secure">
      <Card>
        <Stack>
          <p>{t('pages.loginSecure')}</p>
          <Link to={`/account/login?returnUrl=${encodeURIComponent(returnUrl)}`}>
            {t('common.backToSignIn')}
          </Link>
        </Stack>
      </Card>
    </Page>
  );
}
