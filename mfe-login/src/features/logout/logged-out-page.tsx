import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Alert, Card, Page, Stack } from 'shared-contracts/ui';

const NS = 'mfe-login';

/** `/account/loggedout`: "You are logged out." or, with `?reason=inactivity`, the inactivity message (SPEC.md §8). */
export function LoggedOutPage() {
  const { t } = useTranslation(NS);
  const [search] = useSearchParams();
  const inactivity = search.get('reason') === 'inactivity';
  return (
    <Page title={t('routes.loggedOut')} pageId="loggedout">
      <Card>
        <Stack>
          <Alert kind="info">{inactivity ? t('errors:loggedOutInactivity') : t('errors:loggedOut')}</Alert>
          <Link to="/account/login">{t('loggedOut.signInAgain')}</Link>
        </Stack>
      </Card>
    </Page>
  );
}
