import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Card, Page } from 'shared-contracts/ui';

/** `/account/` (and `/account`): the account pages a visitor can start from. */
export function AccountIndexPage() {
  const { t } = useTranslation('common');
  return (
    <Page title={t('routes.accountIndex')} pageId="account-index">
      <Card>
        <ul className="hr-stack">
          <li>
            <Link to="/account/login">{t('accountIndex.signIn')}</Link>
          </li>
          <li>
            <Link to="/account/recover">{t('accountIndex.recover')}</Link>
          </li>
          <li>
            <Link to="/account/logout">{t('accountIndex.signOut')}</Link>
          </li>
        </ul>
      </Card>
    </Page>
  );
}
