import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { returnUrlOf } from 'shared-contracts';
import { Alert, Card, Page, Stack } from 'shared-contracts/ui';

const NS = 'mfe-login';

/**
 * A page of this remote whose flow is not built yet: its title, a one-line purpose, a plain statement that it is not
 * available yet, and a way back, so nobody waits for a form that will not come.
 */
function FlowPage({ pageKey, pageId }: { pageKey: string; pageId: string }) {
  const { t } = useTranslation(NS);
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  return (
    <Page title={t(`routes.${pageKey}`)} pageId={pageId}>
      <Card>
        <Stack>
          <p>{t(`pages.${pageKey}`)}</p>
          <Alert kind="info">{t('common.notAvailableYet')}</Alert>
          <Link to={`/account/login?returnUrl=${encodeURIComponent(returnUrl)}`}>
            {t('common.backToSignIn')}
          </Link>
        </Stack>
      </Card>
    </Page>
  );
}

/** `/account/login/vendor`. */
export function VendorLoginPage() {
  return <FlowPage pageKey="loginVendor" pageId="login-vendor" />;
}
/** `/account/link`. */
export function LinkPage() {
  return <FlowPage pageKey="link" pageId="link" />;
}
/** `/account/logout/upstream`. */
export function UpstreamLogoutPage() {
  return <FlowPage pageKey="logoutUpstream" pageId="logout-upstream" />;
}
