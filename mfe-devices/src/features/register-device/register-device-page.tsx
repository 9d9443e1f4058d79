import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { returnUrlOf } from 'shared-contracts';
import { Card, Page, Stack } from 'shared-contracts/ui';

/**
 * `/account/registerdevice`: its title, its purpose and a way back to sign-in (its flow is not built yet); the
 * server's state machine decides when a visitor is sent here.
 */
export function RegisterDevicePage() {
  const { t } = useTranslation('mfe-devices');
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  return (
    <Page title={t('routes.registerDevice')} pageId="registerdevice">
      <Card>
        <Stack>
          <p>{t('pages.registerDevice')}</p>
          <Link to={`/account/login?returnUrl=${encodeURIComponent(returnUrl)}`}>
            {t('common.backToSignIn')}
          </Link>
        </Stack>
      </Card>
    </Page>
  );
}
