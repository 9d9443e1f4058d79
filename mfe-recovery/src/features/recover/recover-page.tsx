import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { returnUrlOf } from 'shared-contracts';
import { Card, Page, Stack } from 'shared-contracts/ui';

/**
 * `/account/recover`: its title, its purpose and a way back to sign-in (its flow is not built yet); the
 * server's state machine decides when a visitor is sent here.
 */
export function RecoverPage() {
  const { t } = useTranslation('mfe-recovery');
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  return (
    <Page title={t('routes.recover')} pageId="recover">
      <Card>
        <Stack>
          <p>{t('pages.recover')}</p>
          <Link to={`/account/login?returnUrl=${encodeURIComponent(returnUrl)}`}>
            {t('common.backToSignIn')}
          </Link>
        </Stack>
      </Card>
    </Page>
  );
}
